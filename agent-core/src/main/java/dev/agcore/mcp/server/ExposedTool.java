package dev.agcore.mcp.server;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;

import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.Auditor;
import dev.agcore.json.AgentJson;
import dev.agcore.message.ToolCall;
import dev.agcore.support.LogSafe;
import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.ToolProgress;
import dev.agcore.tool.ToolSpec;
import dev.agcore.tool.permission.PermissionDecision;
import dev.agcore.tool.secret.ActiveSecrets;
import dev.agcore.tool.secret.SecretReferenceException;
import dev.agcore.tool.secret.SecretReferences;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * One of the application's tools offered over MCP: described from its spec and
 * permission, and run for each {@code tools/call} the way an agent runs it. The
 * application's permission policy decides first; secret references in eligible arguments
 * are resolved and scrubbed from what comes back; the tool runs on a bounded-elastic
 * thread, never on the event loop, within its timeout. Every failure becomes an error
 * result with a message, never a stack trace.
 * <p>
 * Never logs arguments or results: they may carry secrets or personal data.
 */
final class ExposedTool implements BiFunction<McpAsyncServerExchange, CallToolRequest, Mono<CallToolResult>> {

	private static final Logger logger = LoggerFactory.getLogger(ExposedTool.class);

	private final ToolCallback tool;

	private final String name;

	private final CallSettings settings;

	ExposedTool(ToolCallback tool, CallSettings settings) {
		this.tool = tool;
		this.name = tool.spec().name();
		this.settings = settings;
	}

	/**
	 * Describe a tool as MCP clients see it.
	 * @param tool the tool
	 * @param mapper reads the tool's input schema
	 * @return the description
	 */
	static McpSchema.Tool describe(ToolCallback tool, McpJsonMapper mapper) {
		ToolSpec spec = tool.spec();
		return McpSchema.Tool.builder()
			.name(spec.name())
			.description(spec.description())
			.inputSchema(mapper, AgentJson.mapper().writeValueAsString(spec.inputSchema()))
			.annotations(annotations(tool.metadata().permission()))
			.build();
	}

	/**
	 * The hints MCP clients show before a call: a read-only tool changes nothing; a
	 * writing one changes things but destroys nothing; a destructive one may. A custom
	 * permission says nothing about either, so a client assumes the worst.
	 */
	static McpSchema.ToolAnnotations annotations(ToolPermission permission) {
		if (permission.equals(ToolPermission.READ_ONLY)) {
			return hints(true, null);
		}
		if (permission.equals(ToolPermission.WRITE)) {
			return hints(false, false);
		}
		return hints(false, permission.equals(ToolPermission.DESTRUCTIVE) ? Boolean.TRUE : null);
	}

	static McpSchema.ToolAnnotations hints(boolean readOnly, @Nullable Boolean destructive) {
		return new McpSchema.ToolAnnotations(null, readOnly, destructive, null, null, null);
	}

	@Override
	public Mono<CallToolResult> apply(McpAsyncServerExchange exchange, CallToolRequest request) {
		return Mono.defer(() -> {
			Map<String, Object> arguments = (request.arguments() != null) ? request.arguments() : Map.of();
			ToolCall call = new ToolCall(McpServerTools.callId(), this.name,
					AgentJson.mapper().writeValueAsString(arguments));
			ProgressSender progress = new ProgressSender(exchange, request.progressToken());
			ToolContext context = new ToolContext(call.id(), sessionId(exchange), McpServerTools.CALLER, Map.of(),
					this.settings.store())
				.withProgress(progress);
			Duration timeout = timeout();
			// a call is audited once: as it ended, or as timed out when its timeout came first
			AtomicBoolean settled = new AtomicBoolean();
			return Mono.fromCallable(() -> run(call, context))
				.subscribeOn(Schedulers.boundedElastic())
				// audited downstream of the call: a call its timeout cancelled emits nothing here
				.map((ran) -> {
					audit(ran.kind(), call, context, ran.secrets(), ran.outcome(), ran.detail(), settled);
					return ran.result();
				})
				.timeout(timeout, Mono.fromSupplier(() -> {
					audit(AuditEvent.Kind.TOOL_CALL, call, context, null, "timeout",
							"did not finish within " + McpServerTools.format(timeout), settled);
					return CallResults.error("Tool '" + this.name + "' did not finish within "
							+ McpServerTools.format(timeout) + " and was cancelled");
				}))
				// the result after the progress the tool reported, not overtaking it
				.flatMap((result) -> progress.sent().thenReturn(result));
		});
	}

	private Ran run(ToolCall call, ToolContext context) {
		PermissionDecision decision = decide(call);
		if (!decision.allowed()) {
			return new Ran(CallResults.error("Tool '" + this.name + "' was denied: " + decision.reason()),
					AuditEvent.Kind.PERMISSION_DENIED, null, "denied", decision.reason());
		}
		// an action the audit trail could not record does not happen (its outbox is full)
		String unrecorded = this.settings.auditor().refusal();
		if (unrecorded != null) {
			return new Ran(CallResults.error("Tool '" + this.name + "' was not run: " + unrecorded),
					AuditEvent.Kind.PERMISSION_DENIED, null, "denied", unrecorded);
		}
		SecretReferences.@Nullable Resolution secrets = null;
		try {
			secrets = SecretReferences.resolve(call.arguments(), this.tool.metadata().secretParameters(),
					this.settings.secretResolver(), AgentJson.mapper());
			String output;
			// what the tool calls (@Traceable) can scrub the secrets from what it records
			try (ActiveSecrets.Scope scope = ActiveSecrets.open(secrets)) {
				output = this.tool.call(secrets.arguments(), context);
			}
			return new Ran(CallResults.text((output != null) ? secrets.scrub(output) : ""),
					AuditEvent.Kind.TOOL_CALL, secrets, "success", "");
		}
		catch (SecretReferenceException ex) {
			return new Ran(CallResults.error("Tool '" + this.name + "' was not run: " + ex.getMessage()),
					AuditEvent.Kind.TOOL_CALL, secrets, "error", ex.getClass().getSimpleName());
		}
		catch (ToolArgumentsException ex) {
			return new Ran(
					CallResults.error(
							"Invalid arguments for tool '" + this.name + "': " + scrub(secrets, ex.getMessage())),
					AuditEvent.Kind.TOOL_CALL, secrets, "error", ex.getClass().getSimpleName());
		}
		catch (Exception ex) {
			// the type only: the message may hold what the arguments held
			logger.debug("MCP call of tool '{}' failed with {}", LogSafe.text(this.name), ex.getClass().getName());
			return new Ran(CallResults.error("Tool '" + this.name + "' failed: " + scrub(secrets, describe(ex))),
					AuditEvent.Kind.TOOL_CALL, secrets, "error", ex.getClass().getSimpleName());
		}
	}

	/** What a call came to, and how it is audited. */
	private record Ran(CallToolResult result, AuditEvent.Kind kind, SecretReferences.@Nullable Resolution secrets,
			String outcome, String detail) {

	}

	// the arguments as the client sent them, any value a secret reference resolved to put back as its reference
	private void audit(AuditEvent.Kind kind, ToolCall call, ToolContext context,
			SecretReferences.@Nullable Resolution secrets, String outcome, String detail, AtomicBoolean settled) {
		Auditor auditor = this.settings.auditor();
		if (auditor.isEnabled() && settled.compareAndSet(false, true)) {
			auditor.publish(kind, McpServerTools.CALLER, context.sessionId(), context.userId(), this.name, call.id(),
					call.arguments(), (text) -> scrub(secrets, text), outcome, detail);
		}
	}

	private PermissionDecision decide(ToolCall call) {
		try {
			return this.settings.permissionPolicy().decide(McpServerTools.CALLER, this.tool, call);
		}
		catch (RuntimeException ex) {
			// a policy that cannot decide must not let the call through
			logger.warn("Permission policy failed for MCP call of tool '{}'", LogSafe.text(this.name),
					LogSafe.throwable(ex));
			return PermissionDecision.deny("the permission policy failed");
		}
	}

	private Duration timeout() {
		Duration own = this.tool.metadata().timeout();
		return (own != null) ? own : this.settings.toolTimeout();
	}

	// the MCP session, so that a tool's session memory lasts as long as the client's session
	private static String sessionId(McpAsyncServerExchange exchange) {
		String sessionId = exchange.sessionId();
		return (sessionId != null && !sessionId.isBlank()) ? sessionId : McpServerTools.sessionId();
	}

	/**
	 * Progress reported to the client, when it asked for it with a progress token: sent one
	 * after the other, in the order the tool reported it, never blocking the tool.
	 */
	private final class ProgressSender implements ToolProgress {

		/** How long the result waits for progress still being sent. */
		private static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(5);

		private final McpAsyncServerExchange exchange;

		private final @Nullable Object token;

		// each report is sent once the one before it was: the tail of that chain
		private Mono<Void> sent = Mono.empty();

		ProgressSender(McpAsyncServerExchange exchange, @Nullable Object token) {
			this.exchange = exchange;
			this.token = token;
		}

		@Override
		public synchronized void report(double progress, @Nullable Double total, @Nullable String message) {
			if (this.token == null) {
				return;
			}
			Mono<Void> send = this.exchange
				.progressNotification(new McpSchema.ProgressNotification(this.token, progress, total, message))
				.onErrorResume((ex) -> {
					logger.debug("Progress of tool '{}' could not be sent: {}", LogSafe.text(ExposedTool.this.name),
							LogSafe.text(ex.toString()));
					return Mono.empty();
				});
			this.sent = this.sent.then(send).cache();
			this.sent.subscribe();
		}

		/** Completes when the progress reported so far was sent, or after a bound. */
		synchronized Mono<Void> sent() {
			return this.sent.timeout(FLUSH_TIMEOUT).onErrorResume((ex) -> Mono.empty());
		}

	}

	private static String scrub(SecretReferences.@Nullable Resolution secrets, @Nullable String text) {
		String value = (text != null) ? text : "";
		return (secrets != null) ? secrets.scrub(value) : value;
	}

	private static String describe(Throwable ex) {
		String message = ex.getMessage();
		return (message != null && !message.isBlank()) ? message : ex.getClass().getSimpleName();
	}

}
