package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

import dev.agcore.AgentPrincipal;
import dev.agcore.memory.DerivedIds;
import dev.agcore.memory.PendingTurn.PendingToolCall;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolException;
import dev.agcore.tool.ToolMetadata;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Another agent offered as a tool ("sub-agent"): the model sends a {@code task}, the
 * sub-agent runs one turn on it and its answer is the tool's result.
 * <ul>
 * <li>The tool is named after the sub-agent (a name the providers accept,
 * {@code ^[a-zA-Z0-9_-]{1,64}$}, unless {@link Builder#name another} is given), and
 * described by {@link Builder#description} or a default that says to put everything the
 * sub-agent needs in the task.</li>
 * <li>The sub-agent's turn runs in a session of its own, {@link #childSessionId
 * &lt;parent-session&gt;/&lt;agent&gt;/&lt;tool-call-id&gt;}, with the parent's user id
 * and request state: it sees neither the parent's conversation nor its session memory,
 * and the parent's conversation holds only the task and the answer.</li>
 * <li>Run by an agent, the sub-agent's usage and cost are added to the parent's turn; when
 * the parent's turn is streamed, the sub-agent's is streamed too and its events reach the
 * parent's stream as {@link AgentEvent.SubAgentEvent}s between the parent's
 * {@code tool_call} and {@code tool_result}.</li>
 * <li>Sub-agents may nest {@link #DEFAULT_MAX_DEPTH} deep unless told otherwise: a call
 * that would go deeper is answered with an error naming the limit.</li>
 * <li>A sub-agent turn that pauses for approval, stops at its max-iterations or fails
 * becomes an error result saying so; the model may try otherwise.</li>
 * </ul>
 * The tool blocks its thread until the sub-agent's turn ends, as the runtime runs tools
 * on the bounded-elastic scheduler; its timeout is the sub-agent's turn timeout (and a
 * little), so the sub-agent's own deadline ends it first.
 */
public final class SubAgentTool implements ToolCallback {

	/** How deep sub-agents nest unless told otherwise. */
	public static final int DEFAULT_MAX_DEPTH = 3;

	/** The longest task the model may send, in characters, unless told otherwise. */
	public static final int DEFAULT_MAX_TASK_LENGTH = 16_000;

	/** The name of the tool's only argument. */
	public static final String TASK = TaskArgument.NAME;

	/** The Reactor context key of the depth of a sub-agent's turn (1 for a parent's child). */
	static final String DEPTH_KEY = SubAgentTool.class.getName() + ".depth";

	private static final Pattern TOOL_NAME = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");

	/** Time past the sub-agent's turn timeout before the call stops waiting. */
	private static final Duration GRACE = Duration.ofSeconds(5);

	private static final Logger logger = LoggerFactory.getLogger(SubAgentTool.class);

	private final Agent agent;

	private final ToolSpec spec;

	private final ToolMetadata metadata;

	private final int maxDepth;

	private final int maxTaskLength;

	private SubAgentTool(Builder builder) {
		this.agent = builder.agent;
		String name = (builder.name != null) ? builder.name : builder.agent.name();
		if (!TOOL_NAME.matcher(name).matches()) {
			throw new IllegalArgumentException("The tool name of sub-agent '" + builder.agent.name() + "' must match "
					+ TOOL_NAME.pattern() + ", was '" + name + "'; give the tool another name");
		}
		String description = (builder.description != null && !builder.description.isBlank()) ? builder.description
				: "Asks the agent '" + this.agent.name() + "' to do a task and returns its answer. It does not see "
						+ "this conversation: put everything it needs in the task.";
		this.maxDepth = builder.maxDepth;
		this.maxTaskLength = builder.maxTaskLength;
		this.spec = new ToolSpec(name, description, TaskArgument.schema(this.maxTaskLength));
		this.metadata = ToolMetadata.DEFAULT.withPermission(permission(this.agent.toolCallbacks()))
			.withCategory("agents")
			.withTimeout(this.agent.turnTimeout().plus(GRACE));
	}

	/**
	 * Offer an agent as a tool, with the defaults.
	 * @param agent the sub-agent
	 * @return the tool
	 */
	public static SubAgentTool of(Agent agent) {
		return builder(agent).build();
	}

	/**
	 * Start building a tool that runs an agent.
	 * @param agent the sub-agent
	 * @return a builder
	 */
	public static Builder builder(Agent agent) {
		return new Builder(agent);
	}

	/**
	 * Return the sub-agent.
	 * @return the agent
	 */
	public Agent agent() {
		return this.agent;
	}

	/**
	 * Return how deep sub-agents may nest below a turn a caller started.
	 * @return the depth
	 */
	public int maxDepth() {
		return this.maxDepth;
	}

	@Override
	public ToolSpec spec() {
		return this.spec;
	}

	/**
	 * Return the metadata: the {@code agents} category, the sub-agent's turn timeout (and
	 * a little), and a permission that is its tools': read-only if all of them are,
	 * destructive if any is (or has a permission of its own), else write.
	 */
	@Override
	public ToolMetadata metadata() {
		return this.metadata;
	}

	@Override
	public String source() {
		return "agent '" + this.agent.name() + "'";
	}

	/**
	 * Run the sub-agent outside an agent's turn: at depth 1, with nothing nested and no
	 * usage added anywhere.
	 */
	@Override
	public String call(String arguments, ToolContext context) {
		return call(arguments, context, SubAgentParent.NONE);
	}

	String call(String arguments, ToolContext context, SubAgentParent parent) {
		String task = TaskArgument.read(arguments, this.maxTaskLength);
		int depth = parent.depth() + 1;
		if (depth > this.maxDepth) {
			throw new ToolException("agent '" + this.agent.name() + "' was not run: sub-agents nest at most "
					+ this.maxDepth + " deep (max-depth " + this.maxDepth + "); do the task without it");
		}
		String sessionId = childSessionId(context.sessionId(), this.agent.name(), context.toolCallId());
		AgentRequest request = new AgentRequest(sessionId, task, context.state(), context.userId());
		Mono<AgentResult> turn = parent.streaming() ? streamed(request, parent) : this.agent.invoke(request);
		AgentResult result;
		try {
			// the parent's caller is the sub-agent's: it reaches the child session as its own
			AgentPrincipal caller = context.principal();
			result = turn.contextWrite((ctx) -> ((caller != null) ? ctx.put(AgentPrincipal.CONTEXT_KEY, caller)
					: ctx.put(CallerResolver.ANONYMOUS_KEY, Boolean.TRUE)).put(DEPTH_KEY, depth))
				.block(this.agent.turnTimeout().plus(GRACE));
		}
		catch (RuntimeException ex) {
			throw failed(unwrap(ex));
		}
		if (result == null) {
			throw new ToolException("agent '" + this.agent.name() + "' ended its turn without a result");
		}
		parent.used(result.usage(), result.cost());
		if (result.isInterrupted()) {
			throw new ToolException("agent '" + this.agent.name() + "' paused its turn for a person to approve "
					+ result.pendingToolCalls().stream().map(PendingToolCall::name).distinct().toList()
					+ ", which a sub-agent cannot wait for; do the task without those tools");
		}
		if (!result.isCompleted()) {
			throw new ToolException("agent '" + this.agent.name() + "' gave no answer: " + result.output());
		}
		return result.output();
	}

	/** The sub-agent's turn, streamed: each event goes on to the parent's stream. */
	private Mono<AgentResult> streamed(AgentRequest request, SubAgentParent parent) {
		String name = this.agent.name();
		return this.agent.stream(request).doOnNext((event) -> parent.event(name, event)).last().flatMap((event) -> {
			if (event instanceof AgentEvent.Completed completed) {
				return Mono.just(completed.result());
			}
			if (event instanceof AgentEvent.Interrupted interrupted) {
				return Mono.just(interrupted.result());
			}
			if (event instanceof AgentEvent.Failed failed) {
				Throwable cause = failed.cause();
				return Mono.error((cause != null) ? cause : new ToolException(failed.message()));
			}
			return Mono.error(new IllegalStateException("The stream of agent '" + name + "' ended with " + event));
		});
	}

	private ToolException failed(Throwable ex) {
		if (ex instanceof ToolException tool) {
			return tool;
		}
		TurnFailure failure = TurnFailure.of(ex);
		if (failure != null) {
			return new ToolException("agent '" + this.agent.name() + "' failed: " + failure.code() + ": "
					+ failure.message(), ex);
		}
		// the details belong in the log, not in front of the model
		logger.warn("Sub-agent '{}' failed", this.agent.name(), ex);
		return new ToolException("agent '" + this.agent.name() + "' failed unexpectedly ("
				+ ex.getClass().getSimpleName() + ")", ex);
	}

	private static Throwable unwrap(RuntimeException ex) {
		// block() wraps checked exceptions; an interrupted wait is the call being cancelled
		Throwable cause = ex.getCause();
		return (cause != null && ex.getClass().getName().startsWith("reactor.core.Exceptions")) ? cause : ex;
	}


	/**
	 * Return the session a sub-agent's turn runs in:
	 * {@code <parent-session>/<agent>/<tool-call-id>}. When that is longer than
	 * {@link AgentRequest#MAX_SESSION_ID_LENGTH}, the parent's session id is replaced by
	 * its SHA-256 (hex), and if still too long, the whole id by {@code subagent/<sha-256>}.
	 * @param parentSessionId the session of the calling turn
	 * @param agent the sub-agent's name
	 * @param toolCallId the id of the tool call
	 * @return the session id
	 */
	public static String childSessionId(String parentSessionId, String agent, String toolCallId) {
		return DerivedIds.derive(parentSessionId, "/" + agent + "/" + toolCallId, AgentRequest.MAX_SESSION_ID_LENGTH,
				"subagent/");
	}


	private static ToolPermission permission(List<ToolCallback> tools) {
		boolean readOnly = true;
		for (ToolCallback tool : tools) {
			ToolPermission permission = tool.metadata().permission();
			if (permission.equals(ToolPermission.DESTRUCTIVE) || permission.isCustom()) {
				return ToolPermission.DESTRUCTIVE;
			}
			readOnly &= permission.equals(ToolPermission.READ_ONLY);
		}
		return readOnly ? ToolPermission.READ_ONLY : ToolPermission.WRITE;
	}

	@Override
	public String toString() {
		return "SubAgentTool '" + this.spec.name() + "' (agent '" + this.agent.name() + "')";
	}

	/**
	 * Builds a {@link SubAgentTool}.
	 */
	public static final class Builder {

		private final Agent agent;

		private @Nullable String name;

		private @Nullable String description;

		private int maxDepth = DEFAULT_MAX_DEPTH;

		private int maxTaskLength = DEFAULT_MAX_TASK_LENGTH;

		private Builder(Agent agent) {
			this.agent = Objects.requireNonNull(agent, "'agent' must not be null");
		}

		/**
		 * Name the tool, instead of after the agent.
		 * @param name the tool name, matching {@code ^[a-zA-Z0-9_-]{1,64}$}
		 * @return this builder
		 */
		public Builder name(@Nullable String name) {
			this.name = name;
			return this;
		}

		/**
		 * Describe the tool to the model: what the sub-agent does and when to ask it.
		 * @param description the description, or {@code null} for the default
		 * @return this builder
		 */
		public Builder description(@Nullable String description) {
			this.description = description;
			return this;
		}

		/**
		 * Bound how deep sub-agents nest below a turn a caller started: 1 lets this tool
		 * run its agent only from a caller's turn, not from another sub-agent's.
		 * @param maxDepth the depth, at least 1; {@value SubAgentTool#DEFAULT_MAX_DEPTH} by
		 * default
		 * @return this builder
		 */
		public Builder maxDepth(int maxDepth) {
			if (maxDepth < 1) {
				throw new IllegalArgumentException("'maxDepth' must be at least 1, was " + maxDepth);
			}
			this.maxDepth = maxDepth;
			return this;
		}

		/**
		 * Bound the task the model may send.
		 * @param maxTaskLength the longest task in characters, at least 1
		 * @return this builder
		 */
		public Builder maxTaskLength(int maxTaskLength) {
			if (maxTaskLength < 1) {
				throw new IllegalArgumentException("'maxTaskLength' must be at least 1, was " + maxTaskLength);
			}
			this.maxTaskLength = maxTaskLength;
			return this;
		}

		/**
		 * Build the tool.
		 * @return the tool
		 * @throws IllegalArgumentException if the tool name does not match
		 * {@code ^[a-zA-Z0-9_-]{1,64}$}
		 */
		public SubAgentTool build() {
			return new SubAgentTool(this);
		}

	}

}
