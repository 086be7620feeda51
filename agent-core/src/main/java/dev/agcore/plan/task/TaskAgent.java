package dev.agcore.plan.task;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.agcore.AgentException;
import dev.agcore.memory.PendingTurn;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ModelCapability;
import dev.agcore.model.ResponseFormat;
import dev.agcore.model.Usage;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.plan.JsonPlanParser;
import dev.agcore.plan.Plan;
import dev.agcore.plan.PlanParseException;
import dev.agcore.plan.PlanParser;
import dev.agcore.plan.Step;
import dev.agcore.plan.StepStatus;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.ResumeRequest;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * An agent that plans before it acts: a turn asks a planning model for a {@link Plan} of
 * the user's message (with the plan's JSON schema as structured output), then runs each
 * step as a turn of the wrapped agent, whose tools and middleware do the work. The
 * stream carries {@link AgentEvent.PlanUpdate}s around the steps' own events and ends
 * with one {@link AgentEvent.Completed} (the last step's answer),
 * {@link AgentEvent.Interrupted} or {@link AgentEvent.Failed}.
 * <ul>
 * <li>Steps run in the request's session, one after the other, each seeing the
 * conversation of the ones before. In a plan whose steps declare dependencies, up to
 * {@link Builder#parallelism} steps whose dependencies completed run at the same time;
 * when several do, each runs in a session of its own derived from the request's, and a
 * step is given the results of the steps it depends on in its message.</li>
 * <li>A failed step fails the plan: the steps not run are skipped, and the stream ends
 * with a {@link dev.agcore.plan.PlanFailedException}. With {@link Builder#replan}, the
 * planning model is asked instead to plan the remaining work from the results so far, at
 * most {@link Builder#maxReplans} times per turn.</li>
 * <li>A step that pauses for tool approval ends the plan's turn as
 * {@link AgentResult.Status#INTERRUPTED}, with that step's pending calls: the step is
 * failed and the rest skipped, since a plan does not wait. {@link #resume} finishes the
 * paused step's own turn only.</li>
 * </ul>
 * Everything else ({@link #history}, {@link #resume}, tools, name) is the wrapped agent's.
 */
public final class TaskAgent implements Agent {

	/** The default bound on a plan's steps. */
	public static final int DEFAULT_MAX_STEPS = 10;

	/** The default bound on replans per turn. */
	public static final int DEFAULT_MAX_REPLANS = 2;

	private final Agent delegate;

	private final ChatModel planningModel;

	private final ChatOptions planningOptions;

	private final PlanParser parser;

	final int maxSteps;

	final boolean replan;

	final int maxReplans;

	final int parallelism;

	final AgentMetrics metrics;

	private TaskAgent(Builder builder) {
		this.delegate = builder.delegate;
		this.planningModel = (builder.planningModel != null) ? builder.planningModel : builder.delegate.model();
		this.planningOptions = builder.planningOptions;
		this.parser = builder.parser;
		this.maxSteps = builder.maxSteps;
		this.replan = builder.replan;
		this.maxReplans = builder.maxReplans;
		this.parallelism = builder.parallelism;
		this.metrics = builder.metrics;
	}

	/**
	 * Start building a task agent.
	 * @param delegate the agent whose turns carry out the steps; the task agent takes its
	 * name
	 * @return the builder
	 */
	public static Builder builder(Agent delegate) {
		return new Builder(delegate);
	}

	/**
	 * Return the agent that carries out the steps.
	 * @return the agent
	 */
	public Agent delegate() {
		return this.delegate;
	}

	/**
	 * Ask the planning model for a plan. An answer that is no valid plan is sent back once
	 * with what is wrong.
	 * @param sessionId the session the plan is for (not written to)
	 * @param goal what the plan must reach
	 * @return the plan, every step pending; fails with {@link PlanParseException} when
	 * the model gives no valid plan
	 */
	public Mono<Plan> plan(String sessionId, String goal) {
		Objects.requireNonNull(sessionId, "'sessionId' must not be null");
		return planned(goal, PlannedUsage.IGNORED).map(PlanAnswer::plan);
	}

	/**
	 * Run an externally made plan in a session and return it as it ended. Steps already
	 * ended are kept as they are; no step may be running.
	 * @param sessionId the session whose conversation the steps' turns join
	 * @param plan the plan
	 * @return the plan as it ended: every step completed, or failed and skipped ones
	 */
	public Mono<Plan> executePlan(String sessionId, Plan plan) {
		return Mono.defer(() -> {
			checkNotRunning(plan);
			PlanExecution execution = new PlanExecution(this, AgentRequest.of(sessionId, plan.goal()), plan);
			return execution.run().then(Mono.fromSupplier(execution::plan));
		});
	}

	/**
	 * Run an externally made plan, emitting events as {@link #stream} does after its
	 * {@code plan_created}.
	 * @param request the session, user, state and options of the steps' turns (its
	 * message is not used)
	 * @param plan the plan; steps already ended are kept, no step may be running
	 * @return the events
	 */
	public Flux<AgentEvent> executePlan(AgentRequest request, Plan plan) {
		return Flux.defer(() -> {
			checkNotRunning(plan);
			return new PlanExecution(this, request, plan).run();
		});
	}

	private static void checkNotRunning(Plan plan) {
		for (Step step : plan.steps()) {
			if (step.status() == StepStatus.RUNNING) {
				throw new IllegalArgumentException(
						"Step " + step.index() + " of the plan is running; a plan is executed from pending steps");
			}
		}
	}

	@Override
	public Flux<AgentEvent> stream(AgentRequest request) {
		return Flux.defer(() -> {
			List<AgentEvent> usage = new ArrayList<>(2);
			return planned(request.message(), (used) -> usage.add(new AgentEvent.UsageReported(used)))
				.flatMapMany((answer) -> {
					AgentEvent created = new AgentEvent.PlanUpdate(AgentEvent.PlanUpdate.PLAN_CREATED, answer.plan(),
							null);
					return Flux.fromIterable(usage)
						.concatWith(Flux.just(created))
						.concatWith(new PlanExecution(this, request, answer.plan()).withUsage(answer.usage()).run());
				});
		}).onErrorResume((ex) -> {
			this.metrics.plan(name(), "failed");
			return Flux.just(new AgentEvent.Failed(ex.getClass().getSimpleName(), String.valueOf(ex.getMessage()), ex));
		});
	}

	@Override
	public Mono<AgentResult> invoke(AgentRequest request) {
		return stream(request).last().flatMap(TaskAgent::result);
	}

	static Mono<AgentResult> result(AgentEvent last) {
		if (last instanceof AgentEvent.Completed completed) {
			return Mono.just(completed.result());
		}
		if (last instanceof AgentEvent.Interrupted interrupted) {
			return Mono.just(interrupted.result());
		}
		if (last instanceof AgentEvent.Failed failed) {
			return Mono.error((failed.cause() != null) ? failed.cause() : new AgentException(failed.message()));
		}
		return Mono.error(new IllegalStateException("A plan's stream ended with " + last.type()));
	}

	/** Ask for a plan, and once more with the problem if the answer is no valid plan. */
	Mono<PlanAnswer> planned(String goal, PlannedUsage usage) {
		return ask(List.of(new UserMessage(goal, List.of(), null)), goal, this.maxSteps, usage);
	}

	/** Ask for a new plan of the remaining work of a failed plan. */
	Mono<PlanAnswer> replanned(Plan plan, int maxSteps, PlannedUsage usage) {
		return ask(List.of(new UserMessage(PlanPrompts.replan(plan, maxSteps), List.of(), null)), plan.goal(), maxSteps,
				usage);
	}

	private Mono<PlanAnswer> ask(List<Message> conversation, String goal, int maxSteps, PlannedUsage usage) {
		boolean nativeSchema = this.planningModel.capabilities().contains(ModelCapability.STRUCTURED_OUTPUT);
		ObjectNode schema = PlanPrompts.schema(maxSteps);
		ChatOptions options = nativeSchema
				? this.planningOptions.mutate().responseFormat(ResponseFormat.jsonSchema("plan", schema)).build()
				: this.planningOptions;
		List<Message> messages = new ArrayList<>();
		messages.add(new SystemMessage(PlanPrompts.system(maxSteps, this.delegate.tools(), !nativeSchema, schema)));
		messages.addAll(conversation);
		return call(messages, options, usage).flatMap((answer) -> {
			try {
				return Mono.just(new PlanAnswer(parse(answer.message().text(), goal, maxSteps), answer.usage()));
			}
			catch (PlanParseException ex) {
				// once more with what was wrong, as structured output does
				List<Message> retry = new ArrayList<>(messages);
				retry.add(answer.message());
				retry.add(new UserMessage("Your plan could not be used: " + ex.getMessage()
						+ ". Answer again with only the JSON plan.", List.of(), null));
				return call(retry, options, usage).map((second) -> new PlanAnswer(
						parse(second.message().text(), goal, maxSteps), answer.usage().plus(second.usage())));
			}
		});
	}

	private Mono<ChatResponse> call(List<Message> messages, ChatOptions options, PlannedUsage usage) {
		return this.planningModel.call(new ChatRequest(messages, List.of(), options)).doOnNext((response) -> {
			if (!response.usage().isEmpty()) {
				usage.used(response.usage());
			}
		});
	}

	private Plan parse(String answer, String goal, int maxSteps) {
		Plan plan = this.parser.parse(answer, goal);
		if (plan.steps().size() > maxSteps) {
			throw new PlanParseException(
					"The plan has " + plan.steps().size() + " steps; at most " + maxSteps + " are allowed");
		}
		return plan;
	}

	@Override
	public String name() {
		return this.delegate.name();
	}

	@Override
	public ChatModel model() {
		return this.delegate.model();
	}

	@Override
	public String systemPrompt() {
		return this.delegate.systemPrompt();
	}

	@Override
	public List<ToolSpec> tools() {
		return this.delegate.tools();
	}

	@Override
	public List<ToolCallback> toolCallbacks() {
		return this.delegate.toolCallbacks();
	}

	@Override
	public List<AgentMiddleware> middleware() {
		return this.delegate.middleware();
	}

	@Override
	public int maxIterations() {
		return this.delegate.maxIterations();
	}

	@Override
	public Duration turnTimeout() {
		// each step's turn has this bound; the plan as a whole is bounded by its steps
		return this.delegate.turnTimeout();
	}

	@Override
	public Mono<List<Message>> history(String sessionId) {
		return this.delegate.history(sessionId);
	}

	@Override
	public Mono<PendingTurn> pendingTurn(String sessionId) {
		return this.delegate.pendingTurn(sessionId);
	}

	@Override
	public Mono<AgentResult> resume(ResumeRequest request) {
		return this.delegate.resume(request);
	}

	@Override
	public Flux<AgentEvent> resumeStream(ResumeRequest request) {
		return this.delegate.resumeStream(request);
	}

	@Override
	public String toString() {
		return "TaskAgent[" + name() + "]";
	}

	/** A plan and the tokens asking for it took. */
	record PlanAnswer(Plan plan, Usage usage) {
	}

	/** Where the usage of each planning call goes. */
	@FunctionalInterface
	interface PlannedUsage {

		PlannedUsage IGNORED = (usage) -> {
		};

		void used(Usage usage);

	}

	/**
	 * Builds a {@link TaskAgent}.
	 */
	public static final class Builder {

		private final Agent delegate;

		private @Nullable ChatModel planningModel;

		private ChatOptions planningOptions = ChatOptions.DEFAULTS;

		private PlanParser parser = new JsonPlanParser();

		private int maxSteps = DEFAULT_MAX_STEPS;

		private boolean replan;

		private int maxReplans = DEFAULT_MAX_REPLANS;

		private int parallelism = 1;

		private AgentMetrics metrics = AgentMetrics.NOOP;

		private Builder(Agent delegate) {
			this.delegate = Objects.requireNonNull(delegate, "'delegate' must not be null");
		}

		/**
		 * Set the model asked for plans.
		 * @param model the model, or {@code null} for the wrapped agent's model
		 * @return this builder
		 */
		public Builder planningModel(@Nullable ChatModel model) {
			this.planningModel = model;
			return this;
		}

		/**
		 * Set the options of the planning calls.
		 * @param options the options; the plan's schema is added as the response format
		 * for models that take one
		 * @return this builder
		 */
		public Builder planningOptions(ChatOptions options) {
			this.planningOptions = Objects.requireNonNull(options, "'options' must not be null");
			return this;
		}

		/**
		 * Set the parser of the planning model's answers.
		 * @param parser the parser, a {@link JsonPlanParser} by default
		 * @return this builder
		 */
		public Builder parser(PlanParser parser) {
			this.parser = Objects.requireNonNull(parser, "'parser' must not be null");
			return this;
		}

		/**
		 * Set the most steps a plan may have, replanned plans included.
		 * @param maxSteps the bound, {@value TaskAgent#DEFAULT_MAX_STEPS} by default
		 * @return this builder
		 */
		public Builder maxSteps(int maxSteps) {
			this.maxSteps = positive("maxSteps", maxSteps);
			return this;
		}

		/**
		 * Set whether a failed step makes the planning model plan the remaining work,
		 * rather than fail the plan.
		 * @param replan whether to replan, {@code false} by default
		 * @return this builder
		 */
		public Builder replan(boolean replan) {
			this.replan = replan;
			return this;
		}

		/**
		 * Set how often one turn may replan.
		 * @param maxReplans the bound, {@value TaskAgent#DEFAULT_MAX_REPLANS} by default
		 * @return this builder
		 */
		public Builder maxReplans(int maxReplans) {
			this.maxReplans = positive("maxReplans", maxReplans);
			return this;
		}

		/**
		 * Set how many steps of a plan with dependencies may run at the same time.
		 * @param parallelism the bound, 1 (one step at a time) by default
		 * @return this builder
		 */
		public Builder parallelism(int parallelism) {
			this.parallelism = positive("parallelism", parallelism);
			return this;
		}

		/**
		 * Set where plan and step outcomes are counted.
		 * @param metrics the metrics
		 * @return this builder
		 */
		public Builder metrics(AgentMetrics metrics) {
			this.metrics = Objects.requireNonNull(metrics, "'metrics' must not be null");
			return this;
		}

		/**
		 * Build the agent.
		 * @return the agent
		 */
		public TaskAgent build() {
			return new TaskAgent(this);
		}

		private static int positive(String name, int value) {
			if (value < 1) {
				throw new IllegalArgumentException("'" + name + "' must be at least 1 (was " + value + ")");
			}
			return value;
		}

	}

}
