package dev.agcore.workflow;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.agcore.AgentPrincipal;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.SessionOwners;
import dev.agcore.message.Message;
import dev.agcore.run.Run;
import dev.agcore.run.RunEmission;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStatus;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentAccessDeniedException;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.CallerResolver;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A workflow run's function calls agents on its own worker thread, with the blocking
 * {@code agent.call}: its turns run for the principal that submitted the run, so the run
 * reaches that principal's sessions and no one else's.
 */
class WorkflowRunCallerTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final KeyValueStore store = new InMemoryKeyValueStore();

	private final ScriptedChatModel model = ScriptedChatModel.answering((request) -> ScriptedChatModel.text("ok"));

	// a resolver that knows nobody, as Spring Security's on a worker thread
	private final Agent agent = Agent.builder()
		.name("helper")
		.model(this.model)
		.conversationStore(new InMemoryConversationStore())
		.store(this.store)
		.callers((view) -> Mono.empty())
		.build();

	// continue the session the input names, blocking, as a workflow's function does
	private final Workflow followUp = Workflow.of("follow-up",
			(ctx, in) -> ctx.task("ask", String.class, () -> this.agent
				.call(AgentRequest.of(in.path("session").asString(), "from the workflow"))
				.output()));

	private final WorkflowRunExecutor executor = new WorkflowRunExecutor(
			new WorkflowEngine(new WorkflowRegistry(List.of(this.followUp)), new InMemoryCheckpointStore()), true);

	@Test
	void aRunsFunctionContinuesItsSubmittersOwnSession() {
		this.agent.invoke(AgentRequest.of("alice-1", "hello"))
			.contextWrite(AgentPrincipal.context(AgentPrincipal.of("alice")))
			.block(TIMEOUT);

		List<RunEmission> emissions = this.executor.execute(run("run-1", "alice", "alice-1")).collectList()
			.block(TIMEOUT);

		assertThat(emissions.get(emissions.size() - 1).outcome().status()).isEqualTo(RunStatus.COMPLETED);
		List<Message> history = this.agent.history("alice-1")
			.contextWrite(AgentPrincipal.context(AgentPrincipal.of("alice")))
			.block(TIMEOUT);
		assertThat(history).hasSize(4);
	}

	@Test
	void anotherUsersRunCannotEnterTheSessionAndTheModelNeverSeesItsMessage() {
		this.agent.invoke(AgentRequest.of("alice-1", "hello"))
			.contextWrite(AgentPrincipal.context(AgentPrincipal.of("alice")))
			.block(TIMEOUT);
		int calls = this.model.requests().size();

		assertThatExceptionOfType(AgentAccessDeniedException.class)
			.isThrownBy(() -> this.executor.execute(run("run-2", "bob", "alice-1")).collectList().block(TIMEOUT));
		assertThat(this.model.requests()).hasSize(calls);
		assertThat(SessionOwners.of(this.store).owner("alice-1").block(TIMEOUT)).isEqualTo("alice");
	}

	@Test
	void anAnonymousRunStaysAnonymousOnTheFunctionsThread() {
		this.agent.invoke(AgentRequest.of("alice-1", "hello"))
			.contextWrite(AgentPrincipal.context(AgentPrincipal.of("alice")))
			.block(TIMEOUT);

		assertThatExceptionOfType(AgentAccessDeniedException.class)
			.isThrownBy(() -> this.executor.execute(run("run-3", null, "alice-1")).collectList().block(TIMEOUT));
		// a session nobody owns is the anonymous run's to use
		List<RunEmission> emissions = this.executor.execute(run("run-4", null, "open-1")).collectList()
			.block(TIMEOUT);
		assertThat(emissions.get(emissions.size() - 1).outcome().status()).isEqualTo(RunStatus.COMPLETED);
		assertThat(SessionOwners.of(this.store).owner("open-1").blockOptional(TIMEOUT)).isEmpty();
	}

	private static Run run(String id, String userId, String session) {
		JsonNode input = AgentJson.mapper().createObjectNode().put("session", session);
		RunRequest request = RunRequest.of("workflow", "follow-up", "wf-" + id, input);
		if (userId != null) {
			request = request.withUserId(userId);
		}
		return new Run(id, request, RunStatus.RUNNING, null, null, null, 1, false, "w", null, Instant.now(), null,
				null);
	}

}
