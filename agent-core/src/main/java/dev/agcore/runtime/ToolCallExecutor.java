package dev.agcore.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;

import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.Auditor;
import dev.agcore.json.AgentJson;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.observation.AgentObservationDocumentation.HighCardinalityKeyNames;
import dev.agcore.observation.AgentObservations;
import dev.agcore.observation.ContentCapture;
import dev.agcore.observation.ExecuteToolObservationContext;
import dev.agcore.observation.ToolOutcome;
import dev.agcore.support.LogSafe;
import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolRegistry;
import dev.agcore.tool.ToolScope;
import dev.agcore.tool.ToolSource;
import dev.agcore.tool.ToolSpec;
import dev.agcore.tool.permission.PermissionDecision;
import dev.agcore.tool.permission.ToolPermissionPolicy;
import dev.agcore.tool.secret.ActiveSecrets;
import dev.agcore.tool.secret.SecretReferenceException;
import dev.agcore.tool.secret.SecretReferences;
import dev.agcore.tool.secret.SecretResolver;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one tool call to completion on the calling thread, the innermost step of every
 * tool call: find the tool in the agent's scope, ask the permission policy, resolve
 * secret references, run the tool, scrub secrets from what it returns and cap its size.
 * Every failure becomes an error result for the model; nothing here throws.
 * <p>
 * Never logs or records arguments or results: they may carry secrets or personal data.
 */
final class ToolCallExecutor {

	static final String UNKNOWN_TOOL_TAG = "unknown";

	/** Default cap on the length of a tool result sent to the model, in characters. */
	static final int DEFAULT_MAX_RESULT_LENGTH = 64 * 1024;

	private static final Logger logger = LoggerFactory.getLogger(ToolCallExecutor.class);

	private final String agentName;

	private final Map<String, ToolCallback> tools;

	private final List<ToolSpec> specs;

	private final List<ScopedSource> sources;

	private final @Nullable ToolRegistry registry;

	private final ToolPermissionPolicy permissionPolicy;

	private final SecretResolver secretResolver;

	private final int maxResultLength;

	private final AgentMetrics metrics;

	private final AgentObservations observations;

	private final Auditor auditor;

	/**
	 * Create an executor.
	 * @param agentName the agent's name
	 * @param tools the tools in the agent's scope
	 * @param sources tools that come and go, each with the agent's scope for them
	 * @param registry all tools of the application, to tell an out-of-scope tool from an
	 * unknown one; or {@code null}
	 * @param permissionPolicy decides whether a call may run
	 * @param secretResolver resolves secret references
	 * @param maxResultLength the longest result sent to the model
	 * @param metrics where tool calls are recorded
	 * @param observations where tool calls are observed
	 * @param auditor told every call's outcome and every denial
	 */
	ToolCallExecutor(String agentName, List<ToolCallback> tools, List<ScopedSource> sources,
			@Nullable ToolRegistry registry, ToolPermissionPolicy permissionPolicy, SecretResolver secretResolver,
			int maxResultLength, AgentMetrics metrics, AgentObservations observations, Auditor auditor) {
		this.observations = observations;
		this.auditor = auditor;
		this.agentName = agentName;
		this.tools = new LinkedHashMap<>();
		for (ToolCallback tool : ToolRegistry.of(tools).all()) {
			this.tools.put(tool.spec().name(), tool);
		}
		this.specs = tools.stream().map(ToolCallback::spec).toList();
		this.sources = List.copyOf(sources);
		this.registry = registry;
		this.permissionPolicy = permissionPolicy;
		this.secretResolver = secretResolver;
		this.maxResultLength = maxResultLength;
		this.metrics = metrics;
	}

	/** The specs sent to the model now: the agent's own tools, then those of its sources. */
	List<ToolSpec> specs() {
		if (this.sources.isEmpty()) {
			return this.specs;
		}
		List<ToolSpec> specs = new ArrayList<>(this.specs);
		sourceTools().forEach((tool) -> specs.add(tool.spec()));
		return specs;
	}

	List<ToolCallback> tools() {
		List<ToolCallback> tools = new ArrayList<>(this.tools.values());
		tools.addAll(sourceTools());
		return List.copyOf(tools);
	}

	/** The time a call may run: the tool's own timeout, or the agent's. */
	Duration timeout(ToolCall call, Duration agentTimeout) {
		ToolCallback tool = find(call.name());
		Duration timeout = (tool != null) ? tool.metadata().timeout() : null;
		return (timeout != null) ? timeout : agentTimeout;
	}

	Auditor auditor() {
		return this.auditor;
	}

	/** Whether the tool's result becomes the agent's answer. */
	boolean returnsDirectly(String toolName) {
		ToolCallback tool = find(toolName);
		return tool != null && tool.metadata().returnDirect();
	}

	/** The agent's tool of that name: its own, else one a source offers now in scope. */
	private @Nullable ToolCallback find(String name) {
		ToolCallback tool = this.tools.get(name);
		if (tool != null || this.sources.isEmpty()) {
			return tool;
		}
		for (ScopedSource source : this.sources) {
			for (ToolCallback candidate : source.source().tools()) {
				if (candidate.spec().name().equals(name) && source.scope().includes(candidate)) {
					return candidate;
				}
			}
		}
		return null;
	}

	/** The tools the sources offer now in scope; an own tool of the same name wins. */
	private List<ToolCallback> sourceTools() {
		List<ToolCallback> tools = new ArrayList<>();
		Set<String> names = new HashSet<>(this.tools.keySet());
		for (ScopedSource source : this.sources) {
			for (ToolCallback tool : source.source().tools()) {
				if (source.scope().includes(tool) && names.add(tool.spec().name())) {
					tools.add(tool);
				}
			}
		}
		return tools;
	}

	/**
	 * Run one call.
	 * @param call the call as the model made it
	 * @param context the runtime values of the call
	 * @param failures told the exception behind an error result, for middleware that
	 * decides by exception type (tool retry)
	 * @param parent the calling turn, which a {@link SubAgentTool} nests its agent's turn in
	 * @param turnObservation the turn's observation, the parent of the call's; or null
	 * @return the result, or an error result saying what went wrong
	 */
	ToolResultMessage execute(ToolCall call, ToolContext context, ToolAttempt attempt, SubAgentParent parent,
			@Nullable Observation turnObservation) {
		if (this.observations.isNoop()) {
			return execute(call, context, attempt, parent);
		}
		ExecuteToolObservationContext observed = new ExecuteToolObservationContext(this.agentName, toolTag(call),
				call.id(), TurnObservations.sessionId(turnObservation));
		TurnObservations.Once once = new TurnObservations.Once(
				this.observations.executeTool(observed, turnObservation).start());
		attempt.observe(once);
		ContentCapture capture = this.observations.contentCapture();
		TurnObservations.capture(once.observation(), capture, HighCardinalityKeyNames.TOOL_CALL_ARGUMENTS,
				call.arguments());
		// the tool's own observations (@Traceable, a sub-agent's turn) nest in the call's
		try (Observation.Scope scope = once.observation().openScope()) {
			ToolResultMessage result = execute(call, context, attempt, parent);
			TurnObservations.capture(once.observation(), capture, HighCardinalityKeyNames.TOOL_CALL_RESULT,
					result.text());
			return result;
		}
		finally {
			once.stop(null);
		}
	}

	private ToolResultMessage execute(ToolCall call, ToolContext context, ToolAttempt attempt,
			SubAgentParent parent) {
		ToolCallback tool = find(call.name());
		if (tool == null) {
			if (report(attempt, call, ToolOutcome.ERROR, 0, null)) {
				audit(AuditEvent.Kind.TOOL_CALL, call, context, null, "error", "not a tool of this agent");
			}
			return ToolResultMessage.failure(call, notInScope(call.name()));
		}
		PermissionDecision decision = decide(tool, call, context);
		if (!decision.allowed()) {
			logger.debug("Agent '{}' was denied tool '{}': {}", LogSafe.text(this.agentName),
					LogSafe.text(call.name()), LogSafe.text(decision.reason()));
			if (report(attempt, call, ToolOutcome.DENIED, 0, null)) {
				audit(AuditEvent.Kind.PERMISSION_DENIED, call, context, null, "denied", decision.reason());
			}
			return ToolResultMessage.failure(call,
					"Error: tool '" + call.name() + "' was denied: " + decision.reason());
		}
		// an action the audit trail could not record does not happen (its outbox is full)
		String unrecorded = this.auditor.refusal();
		if (unrecorded != null) {
			if (report(attempt, call, ToolOutcome.DENIED, 0, null)) {
				audit(AuditEvent.Kind.PERMISSION_DENIED, call, context, null, "denied", unrecorded);
			}
			return ToolResultMessage.failure(call, "Error: tool '" + call.name() + "' was not run: " + unrecorded);
		}
		long start = System.nanoTime();
		SecretReferences.@Nullable Resolution secrets = null;
		try {
			secrets = SecretReferences.resolve(call.arguments(), tool.metadata().secretParameters(),
					this.secretResolver, AgentJson.mapper());
			String output;
			// what the tool calls (@Traceable) can scrub the secrets from what it records
			try (ActiveSecrets.Scope scope = ActiveSecrets.open(secrets)) {
				if (tool instanceof SubAgentTool subAgent) {
					output = subAgent.call(secrets.arguments(), context, parent);
				}
				else if (tool instanceof NestedEventsTool nested) {
					output = nested.call(secrets.arguments(), context, parent);
				}
				else {
					output = tool.call(secrets.arguments(), context);
				}
			}
			if (report(attempt, call, ToolOutcome.SUCCESS, System.nanoTime() - start, null)) {
				audit(AuditEvent.Kind.TOOL_CALL, call, context, secrets, "success", "");
			}
			return ToolResultMessage.success(call, limit((output != null) ? secrets.scrub(output) : ""));
		}
		catch (SecretReferenceException ex) {
			return failure(attempt, call, context, secrets, start, ex,
					"Error: tool '" + call.name() + "' was not run: " + ex.getMessage());
		}
		catch (ToolArgumentsException ex) {
			return failure(attempt, call, context, secrets, start, ex, "Error: invalid arguments for tool '"
					+ call.name() + "': " + scrub(secrets, ex.getMessage()));
		}
		catch (Exception ex) {
			return failure(attempt, call, context, secrets, start, ex,
					"Error: tool '" + call.name() + "' failed: " + scrub(secrets, describe(ex)));
		}
	}

	/**
	 * End an attempt that overran its timeout, unless the tool ended it first.
	 * @return whether the timeout ended the attempt
	 */
	boolean timeOut(ToolAttempt attempt, ToolCall call, ToolContext context, Duration timeout, long start) {
		if (!attempt.settle()) {
			return false;
		}
		audit(AuditEvent.Kind.TOOL_CALL, call, context, null, "timeout", "did not finish within " + format(timeout));
		this.metrics.toolCall(this.agentName, toolTag(call), ToolOutcome.TIMEOUT, System.nanoTime() - start);
		TimeoutException timedOut = new TimeoutException("tool '" + call.name() + "' did not finish within " + timeout);
		attempt.failedWith(timedOut);
		// the call's observation ends now, not when the late tool returns
		TurnObservations.Once once = attempt.observation();
		if (once != null && once.observation().getContext() instanceof ExecuteToolObservationContext observed) {
			observed.setOutcome(ToolOutcome.TIMEOUT);
			once.stop(timedOut);
		}
		return true;
	}

	/** The result sent to the model for a call that overran its timeout. */
	ToolResultMessage timeoutResult(ToolCall call, Duration timeout) {
		return ToolResultMessage.failure(call,
				"Error: tool '" + call.name() + "' did not finish within " + format(timeout) + " and was cancelled");
	}

	/** Whether calls are checked by a policy that can refuse them. */
	boolean checksPermissions() {
		return this.permissionPolicy != ToolPermissionPolicy.ALLOW_ALL;
	}

	/**
	 * Whether the permission policy refuses a call, asked before middleware so a refused
	 * call is not first paused for approval. The call is decided again when it runs.
	 */
	boolean denies(ToolCall call, ToolContext context) {
		ToolCallback tool = find(call.name());
		return tool != null && !decide(tool, call, context).allowed();
	}

	private PermissionDecision decide(ToolCallback tool, ToolCall call, ToolContext context) {
		try {
			return this.permissionPolicy.decide(this.agentName, tool, call, context);
		}
		catch (RuntimeException ex) {
			// a policy that cannot decide must not let the call through
			logger.warn("Permission policy failed for tool '{}' of agent '{}'", LogSafe.text(call.name()),
					LogSafe.text(this.agentName), LogSafe.throwable(ex));
			return PermissionDecision.deny("the permission policy failed");
		}
	}

	// the name comes from the model: only the agent's own tools may become a tag value
	private String toolTag(ToolCall call) {
		return (find(call.name()) != null) ? call.name() : UNKNOWN_TOOL_TAG;
	}

	private String notInScope(String name) {
		String available = String.join(", ", specs().stream().map(ToolSpec::name).toList());
		if (this.registry != null && this.registry.find(name).isPresent()) {
			return "Error: tool '" + name + "' is not available to this agent. Available tools: " + available;
		}
		return "Error: unknown tool '" + name + "'. Available tools: " + available;
	}

	private ToolResultMessage failure(ToolAttempt attempt, ToolCall call, ToolContext context,
			SecretReferences.@Nullable Resolution secrets, long start, Exception cause, String message) {
		if (report(attempt, call, ToolOutcome.ERROR, System.nanoTime() - start, cause)) {
			audit(AuditEvent.Kind.TOOL_CALL, call, context, secrets, "error", cause.getClass().getSimpleName());
		}
		return ToolResultMessage.failure(call, limit(message));
	}

	// the arguments as the model sent them (secret references, not values), with any value a
	// reference resolved to put back as its reference, in case the model wrote it out
	private void audit(AuditEvent.Kind kind, ToolCall call, ToolContext context,
			SecretReferences.@Nullable Resolution secrets, String outcome, String detail) {
		if (this.auditor.isEnabled()) {
			this.auditor.publish(kind, this.agentName, context.sessionId(), context.userId(), call.name(), call.id(),
					call.arguments(), (text) -> scrub(secrets, text), outcome, detail);
		}
	}

	/** Record a call's outcome unless its timeout did first; return whether this one counted. */
	private boolean report(ToolAttempt attempt, ToolCall call, ToolOutcome outcome, long nanos,
			@Nullable Throwable cause) {
		// a call its timeout already ended was reported as a timeout
		if (attempt.settle()) {
			this.metrics.toolCall(this.agentName, toolTag(call), outcome, nanos);
			attempt.failedWith(cause);
			TurnObservations.Once once = attempt.observation();
			if (once != null && once.observation().getContext() instanceof ExecuteToolObservationContext observed) {
				observed.setOutcome(outcome);
				if (cause != null) {
					once.observation().error(cause);
				}
			}
			return true;
		}
		return false;
	}

	// a tool can return anything; a huge result would crowd out the conversation
	private String limit(String text) {
		if (text.length() <= this.maxResultLength) {
			return text;
		}
		int end = this.maxResultLength;
		if (Character.isHighSurrogate(text.charAt(end - 1))) {
			end--;
		}
		return text.substring(0, end) + "\n[truncated: the result was " + text.length()
				+ " characters long; only the first " + end + " are shown]";
	}

	private static String scrub(SecretReferences.@Nullable Resolution secrets, @Nullable String text) {
		String value = (text != null) ? text : "";
		return (secrets != null) ? secrets.scrub(value) : value;
	}

	private static String describe(Throwable ex) {
		String message = ex.getMessage();
		String type = ex.getClass().getSimpleName();
		return (message != null && !message.isBlank()) ? type + ": " + message : type;
	}

	/**
	 * A source of tools and the scope an agent gives it.
	 * @param source the tools that come and go
	 * @param scope which of them the agent may use
	 */
	record ScopedSource(ToolSource source, ToolScope scope) {

	}

	static String format(Duration duration) {
		long millis = duration.toMillis();
		return (millis % 1000 == 0) ? (millis / 1000) + " s" : millis + " ms";
	}

}
