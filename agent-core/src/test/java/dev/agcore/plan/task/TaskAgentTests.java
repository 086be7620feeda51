package dev.agcore.plan.task;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.message.Message;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ModelCapability;
import dev.agcore.model.ResponseFormat;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.plan.Plan;
import dev.agcore.plan.PlanFailedException;
import dev.agcore.plan.PlanParseException;
import dev.agcore.plan.Step;
import dev.agcore.plan.StepStatus;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentEvent.PlanUpdate;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import static dev.agcore.testing.ScriptedChatModel.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link TaskAgent}.
 */
class TaskAgentTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final RecordingMetrics metrics = new RecordingMetrics();

	/** A worker that answers each step with "did: " and the step's last line, failing steps that say FAIL. */
	private final ScriptedChatModel worker = ScriptedChatModel.answering((request) -> {
		String step = lastLine(lastUserText(request));
		if (step.contains("FAIL")) {
			throw new IllegalStateException("could not " + step);
		}
		return text("did: " + step);
	});

	@Test
	void plansThenRunsEachStepAsATurnOfTheDelegateInTheSession() {
		ScriptedChatModel planner = ScriptedChatModel
			.replaying(text("```json\n{\"steps\":[{\"description\":\"Find flights\"},{\"description\":\"Book one\"}]}\n```"));
		TaskAgent agent = taskAgent(planner).build();

		List<AgentEvent> events = agent.stream(AgentRequest.of("s1", "Trip to Rome")).collectList().block(TIMEOUT);

		assertThat(planEvents(events)).containsExactly("plan_created", "step_started:0", "step_completed:0",
				"step_started:1", "step_completed:1");
		assertThat(events.get(events.size() - 1)).isInstanceOf(AgentEvent.Completed.class);
		AgentResult result = ((AgentEvent.Completed) events.get(events.size() - 1)).result();
		assertThat(result.output()).isEqualTo("did: Step 2: Book one");
		assertThat(result.sessionId()).isEqualTo("s1");
		Plan plan = ((PlanUpdate) events.stream().filter(PlanUpdate.class::isInstance).reduce((a, b) -> b).get()).plan();
		assertThat(plan.steps()).extracting(Step::status).containsOnly(StepStatus.COMPLETED);
		assertThat(plan.step(0).result()).isEqualTo("did: Step 1: Find flights");
		// the planner got the goal; each step is a turn in the same session, naming the goal
		assertThat(lastUserText(planner.requests().get(0))).isEqualTo("Trip to Rome");
		assertThat(this.worker.requests()).hasSize(2);
		assertThat(lastUserText(this.worker.requests().get(1))).contains("goal: Trip to Rome", "step 2 of 2");
		List<Message> history = agent.history("s1").block(TIMEOUT);
		assertThat(history).filteredOn(UserMessage.class::isInstance).hasSize(2);
		assertThat(this.metrics.steps).containsExactly("completed", "completed");
		assertThat(this.metrics.plans).containsExactly("completed");
	}

	@Test
	void thePlanSchemaIsTheNativeResponseFormatOrInTheSystemPrompt() {
		String plan = "{\"steps\":[{\"description\":\"a\",\"dependsOn\":[]}]}";
		ScriptedChatModel nativeModel = ScriptedChatModel.replaying(text(plan))
			.withCapabilities(ModelCapability.STRUCTURED_OUTPUT);
		taskAgent(nativeModel).build().plan("s1", "g").block(TIMEOUT);
		ResponseFormat format = nativeModel.requests().get(0).options().responseFormat();
		assertThat(format.type()).isEqualTo(ResponseFormat.Type.JSON_SCHEMA);
		assertThat(format.schema().path("required").get(0).asString()).isEqualTo("steps");

		ScriptedChatModel plainModel = ScriptedChatModel.replaying(text(plan));
		taskAgent(plainModel).maxSteps(4).build().plan("s1", "g").block(TIMEOUT);
		assertThat(plainModel.requests().get(0).options().responseFormat()).isNull();
		assertThat(plainModel.requests().get(0).messages().get(0).text()).contains("at most 4 steps",
				"matching this schema", "\"maxItems\":4");
	}

	@Test
	void anInvalidPlanIsAskedForOnceMoreThenFailsWithThePlanParseError() {
		ScriptedChatModel planner = ScriptedChatModel.replaying(text("I would rather not."), text("{\"steps\":[]}"));

		List<AgentEvent> events = taskAgent(planner).build().stream(AgentRequest.of("s1", "g")).collectList()
			.block(TIMEOUT);

		assertThat(planner.requests()).hasSize(2);
		assertThat(lastUserText(planner.requests().get(1))).startsWith("Your plan could not be used: Plan JSON could");
		AgentEvent.Failed failed = (AgentEvent.Failed) events.get(events.size() - 1);
		assertThat(failed.cause()).isInstanceOf(PlanParseException.class);
		assertThat(failed.message()).isEqualTo("A plan needs at least one step");
		assertThat(this.worker.requests()).isEmpty();
	}

	@Test
	void aFailedStepSkipsTheRestAndFailsThePlan() {
		ScriptedChatModel planner = ScriptedChatModel.replaying(text(
				"{\"steps\":[{\"description\":\"a\"},{\"description\":\"FAIL b\"},{\"description\":\"c\"}]}"));
		TaskAgent agent = taskAgent(planner).build();

		List<AgentEvent> events = agent.stream(AgentRequest.of("s1", "g")).collectList().block(TIMEOUT);

		assertThat(planEvents(events)).containsExactly("plan_created", "step_started:0", "step_completed:0",
				"step_started:1", "step_failed:1", "step_skipped:2");
		AgentEvent.Failed failed = (AgentEvent.Failed) events.get(events.size() - 1);
		assertThat(failed.cause()).isInstanceOf(PlanFailedException.class);
		assertThat(failed.message()).contains("step 1 (FAIL b) failed", "0 completed, 1 failed, 2 skipped");
		Plan plan = ((PlanFailedException) failed.cause()).plan();
		assertThat(plan.steps()).extracting(Step::status)
			.containsExactly(StepStatus.COMPLETED, StepStatus.FAILED, StepStatus.SKIPPED);
		assertThat(this.metrics.steps).containsExactly("completed", "failed", "skipped");
		assertThat(this.metrics.plans).containsExactly("failed");
		assertThatExceptionOfType(PlanFailedException.class)
			.isThrownBy(() -> taskAgent(ScriptedChatModel.replaying(text("{\"steps\":[{\"description\":\"FAIL\"}]}")))
				.build()
				.invoke(AgentRequest.of("s2", "g"))
				.block(TIMEOUT));
	}

	@Test
	void replanningPlansTheRemainingWorkFromTheResultsSoFar() {
		ScriptedChatModel planner = ScriptedChatModel.replaying(
				text("{\"steps\":[{\"description\":\"a\"},{\"description\":\"FAIL b\"},{\"description\":\"c\"}]}"),
				text("{\"steps\":[{\"description\":\"b the other way\"},{\"description\":\"c\"}]}"));
		TaskAgent agent = taskAgent(planner).replan(true).build();

		List<AgentEvent> events = agent.stream(AgentRequest.of("s1", "g")).collectList().block(TIMEOUT);

		assertThat(planEvents(events)).containsExactly("plan_created", "step_started:0", "step_completed:0",
				"step_started:1", "step_failed:1", "step_skipped:2", "plan_replanned", "step_started:1",
				"step_completed:1", "step_started:2", "step_completed:2");
		assertThat(lastUserText(planner.requests().get(1))).contains("Step 0 (a): completed. Result: did: Step 1: a",
				"Step 1 (FAIL b): FAILED: could not Step 2: FAIL b", "Step 2 (c): skipped");
		AgentResult result = ((AgentEvent.Completed) events.get(events.size() - 1)).result();
		assertThat(result.output()).isEqualTo("did: Step 3: c");
		assertThat(this.metrics.plans).containsExactly("completed");
	}

	@Test
	void replanningIsBounded() {
		String failing = "{\"steps\":[{\"description\":\"FAIL again\"}]}";
		ScriptedChatModel planner = ScriptedChatModel.replaying(text(failing), text(failing), text(failing),
				text(failing));
		TaskAgent agent = taskAgent(planner).replan(true).maxReplans(2).build();

		List<AgentEvent> events = agent.stream(AgentRequest.of("s1", "g")).collectList().block(TIMEOUT);

		assertThat(planEvents(events)).filteredOn("plan_replanned"::equals).hasSize(2);
		assertThat(planner.requests()).hasSize(3);
		assertThat(events.get(events.size() - 1)).isInstanceOf(AgentEvent.Failed.class);
	}

	@Test
	void independentStepsRunSideBySideInSessionsOfTheirOwnAndTheirResultsReachTheirDependent() {
		CompletableFuture<Void> bothStarted = new CompletableFuture<>();
		AtomicInteger started = new AtomicInteger();
		Map<String, String> sessions = new ConcurrentHashMap<>();
		// each of the first two steps answers only once the other has started: they must run together
		ChatModel gated = new GatedModel(this.worker, (request) -> {
			String text = lastUserText(request);
			if (!text.contains("Step 3")) {
				if (started.incrementAndGet() == 2) {
					bothStarted.complete(null);
				}
				return Mono.fromFuture(bothStarted);
			}
			return Mono.empty();
		});
		Agent delegate = Agent.builder().name("worker").model(gated).build();
		ScriptedChatModel planner = ScriptedChatModel.replaying(text("{\"steps\":[{\"description\":\"a\"},"
				+ "{\"description\":\"b\"},{\"description\":\"c\",\"dependsOn\":[0,1]}]}"));
		TaskAgent agent = TaskAgent.builder(delegate).planningModel(planner).parallelism(2).build();

		List<AgentEvent> events = agent.stream(AgentRequest.of("s1", "g")).collectList().block(TIMEOUT);

		assertThat(planEvents(events).subList(0, 3)).containsExactly("plan_created", "step_started:0",
				"step_started:1");
		AgentResult result = ((AgentEvent.Completed) events.get(events.size() - 1)).result();
		assertThat(result.output()).isEqualTo("did: Step 3: c");
		String third = lastUserText(this.worker.requests().get(2));
		assertThat(third).contains("[Step 1: a]\ndid: Step 1: a", "[Step 2: b]\ndid: Step 2: b");
		// the side-by-side steps ran in derived sessions, the last one in the request's
		assertThat(agent.history("s1").block(TIMEOUT)).filteredOn(UserMessage.class::isInstance).hasSize(1);
	}

	@Test
	void executePlanRunsAnExternalPlanWithoutAskingForOne() {
		ScriptedChatModel planner = ScriptedChatModel.replaying();
		TaskAgent agent = taskAgent(planner).build();

		Plan plan = agent.executePlan("s1", Plan.of("g", List.of("x", "y"))).block(TIMEOUT);

		assertThat(plan.steps()).extracting(Step::result).containsExactly("did: Step 1: x", "did: Step 2: y");
		assertThat(planner.requests()).isEmpty();
		Plan failing = agent.executePlan("s2", Plan.of("g", List.of("FAIL x", "y"))).block(TIMEOUT);
		assertThat(failing.steps()).extracting(Step::status).containsExactly(StepStatus.FAILED, StepStatus.SKIPPED);
	}

	private TaskAgent.Builder taskAgent(ChatModel planner) {
		Agent delegate = Agent.builder().name("worker").model(this.worker).build();
		return TaskAgent.builder(delegate).planningModel(planner).metrics(this.metrics);
	}

	private static List<String> planEvents(List<AgentEvent> events) {
		List<String> types = new ArrayList<>();
		for (AgentEvent event : events) {
			if (event instanceof PlanUpdate update) {
				types.add(update.type() + ((update.stepIndex() != null) ? ":" + update.stepIndex() : ""));
			}
		}
		return types;
	}

	private static String lastUserText(ChatRequest request) {
		List<Message> messages = request.messages();
		for (int i = messages.size() - 1; i >= 0; i--) {
			if (messages.get(i) instanceof UserMessage user) {
				return user.text();
			}
		}
		return "";
	}

	private static String lastLine(String text) {
		return text.substring(text.lastIndexOf('\n') + 1);
	}

	/** A model that waits for a gate before answering as another does. */
	private record GatedModel(ChatModel model,
			java.util.function.Function<ChatRequest, Mono<Void>> gate) implements ChatModel {

		@Override
		public Mono<ChatResponse> call(ChatRequest request) {
			return this.gate.apply(request).then(this.model.call(request));
		}

		@Override
		public Flux<ChatChunk> stream(ChatRequest request) {
			return this.gate.apply(request).thenMany(this.model.stream(request));
		}

	}

	private static final class RecordingMetrics implements AgentMetrics {

		final List<String> steps = new CopyOnWriteArrayList<>();

		final List<String> plans = new CopyOnWriteArrayList<>();

		@Override
		public void planStep(String agent, String status) {
			this.steps.add(status);
		}

		@Override
		public void plan(String agent, String outcome) {
			this.plans.add(outcome);
		}

	}

}
