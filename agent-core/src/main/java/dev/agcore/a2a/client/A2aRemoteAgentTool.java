package dev.agcore.a2a.client;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.agcore.runtime.NestedEvents;
import dev.agcore.runtime.NestedEventsTool;
import dev.agcore.runtime.TaskArgument;
import dev.agcore.support.LogSafe;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolException;
import dev.agcore.tool.ToolMetadata;
import dev.agcore.tool.ToolSpec;
import io.a2a.spec.AgentCard;
import io.a2a.spec.AgentInterface;
import io.a2a.spec.AgentSkill;
import io.a2a.spec.Message;
import io.a2a.spec.MessageSendConfiguration;
import io.a2a.spec.MessageSendParams;
import io.a2a.spec.TaskState;
import io.a2a.spec.TextPart;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

/**
 * A remote A2A agent offered as a tool: the model sends a {@code task}, the remote runs
 * it and its answer is the tool's result, as with a local sub-agent.
 * <ul>
 * <li>The Agent Card is fetched when first needed (never at startup), kept, and fetched
 * again after a failure. Until it is known the tool is described by the configured
 * description or a generic one; then by the card's description and skills (unless a
 * description is configured).</li>
 * <li>A call sends {@code message/stream} when the card says the remote streams, else
 * {@code message/send}. Its progress reaches a streamed calling turn as
 * {@code subagent} events of the call: status messages as {@code tool_progress}, the
 * text of artifacts and of the final answer as {@code text}.</li>
 * <li>Calls from one session of the caller share one A2A {@code contextId}, so the
 * remote's conversation continues; a task that asked for input ({@code input-required})
 * is continued by the session's next call.</li>
 * <li>A task the remote failed, rejected or canceled, a timeout and a lost connection
 * are errors naming the remote (and its URL); a stream lost after the task started is
 * resubscribed once ({@code tasks/resubscribe}); a request whose connection could not be
 * opened is sent once more. A task still running when the call times out or is canceled
 * is canceled on the remote.</li>
 * </ul>
 * The tool blocks its thread (the runtime runs tools on the bounded-elastic scheduler)
 * for at most the remote's timeout.
 */
public final class A2aRemoteAgentTool implements NestedEventsTool {

	/** The name of the tool's only argument. */
	public static final String TASK = TaskArgument.NAME;

	/** The longest task the model may send, in characters. */
	public static final int MAX_TASK_LENGTH = 16_000;

	/** The longest description taken from a card; the card is the remote's, so untrusted. */
	public static final int MAX_DESCRIPTION_LENGTH = 2_000;

	/** Sessions whose A2A context is remembered; the oldest is forgotten past this. */
	static final int MAX_CONVERSATIONS = 10_000;

	/** Time after a failed card fetch before the tool list asks for the card again. */
	private static final Duration CARD_RETRY_AFTER = Duration.ofSeconds(30);

	private static final String JSONRPC = "JSONRPC";

	private static final Logger logger = LoggerFactory.getLogger(A2aRemoteAgentTool.class);

	private final A2aRemote remote;

	private final A2aJsonRpc rpc;

	private final ToolMetadata metadata;

	private final ObjectNode schema;

	private volatile ToolSpec spec;

	private volatile @Nullable Resolved resolved;

	private final AtomicBoolean fetching = new AtomicBoolean();

	private volatile long nextFetch;

	private final Map<String, Conversation> conversations = new LinkedHashMap<>(16, 0.75f, true) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<String, Conversation> eldest) {
			return size() > MAX_CONVERSATIONS;
		}

	};

	/**
	 * Create the tool of a remote agent.
	 * @param remote the remote, as configured
	 * @param webClient the client its requests go through
	 */
	public A2aRemoteAgentTool(A2aRemote remote, WebClient webClient) {
		this.remote = Objects.requireNonNull(remote, "'remote' must not be null");
		this.rpc = new A2aJsonRpc(remote, Objects.requireNonNull(webClient, "'webClient' must not be null"));
		this.schema = TaskArgument.schema(MAX_TASK_LENGTH);
		this.spec = new ToolSpec(remote.name(), describe(null), this.schema);
		// a remote agent may do anything: neither read-only nor known to be destructive
		this.metadata = ToolMetadata.DEFAULT.withCategory("agents")
			.withTimeout(remote.timeout().plus(Duration.ofSeconds(5)));
	}

	/**
	 * Return the remote.
	 * @return the remote, as configured
	 */
	public A2aRemote remote() {
		return this.remote;
	}

	/**
	 * Return what the model is told: the card's description and skills once the card is
	 * known (or the configured description), else a generic description.
	 */
	@Override
	public ToolSpec spec() {
		return this.spec;
	}

	@Override
	public ToolMetadata metadata() {
		return this.metadata;
	}

	@Override
	public String source() {
		return "A2A remote agent '" + this.remote.name() + "' at " + this.remote.url();
	}

	/**
	 * Return the remote's Agent Card, if it was fetched.
	 * @return the card, or {@code null}
	 */
	public @Nullable AgentCard card() {
		Resolved resolved = this.resolved;
		return (resolved != null) ? resolved.card() : null;
	}

	/**
	 * Fetch the Agent Card in the background unless it is known, being fetched, or failed
	 * a short while ago. Does no I/O on the calling thread.
	 */
	public void prefetch() {
		if (this.resolved != null || System.nanoTime() - this.nextFetch < 0 || !this.fetching.compareAndSet(false, true)) {
			return;
		}
		this.rpc.card().timeout(this.remote.timeout()).doFinally((signal) -> this.fetching.set(false)).subscribe(
				(card) -> {
					try {
						resolve(card);
					}
					catch (ToolException ex) {
						// a call fetches the card again and reports this
						logger.debug("A2A remote '{}': {}", LogSafe.text(this.remote.name()),
								LogSafe.text(ex.getMessage()));
					}
				}, (ex) -> {
					this.nextFetch = System.nanoTime() + CARD_RETRY_AFTER.toNanos();
					logger.debug("The Agent Card of A2A remote '{}' could not be fetched: {}",
							LogSafe.text(this.remote.name()), LogSafe.text(ex.toString()));
				});
	}

	@Override
	public String call(String arguments, ToolContext context, NestedEvents events) {
		String task = TaskArgument.read(arguments, MAX_TASK_LENGTH);
		Resolved resolved = resolved();
		Conversation conversation = conversation(context.sessionId());
		Message message = new Message.Builder().role(Message.Role.USER)
			.parts(List.of(new TextPart(task)))
			.messageId(UUID.randomUUID().toString())
			.contextId(conversation.contextId())
			.taskId(conversation.pendingTaskId())
			.build();
		MessageSendParams params = new MessageSendParams(message,
				new MessageSendConfiguration(List.of("text/plain", "text", "application/json"), null, null, true),
				null);
		RemoteTask remoteTask = new RemoteTask(this.remote.name(), context.toolCallId(), events);
		Mono<RemoteTask> run = resolved.streaming() ? streamed(resolved.endpoint(), params, remoteTask)
				: this.rpc.send(resolved.endpoint(), params).doOnNext(remoteTask::accept).thenReturn(remoteTask);
		try {
			run.timeout(this.remote.timeout()).block();
		}
		catch (RuntimeException ex) {
			Throwable cause = unwrap(ex);
			if (!remoteTask.settled()) {
				cancel(resolved, remoteTask);
			}
			if (A2aJsonRpc.isConnectFailure(cause) || cause instanceof WebClientRequestException) {
				// the remote may have moved: read its card again next time
				this.resolved = null;
			}
			throw failure(cause, resolved.endpoint());
		}
		return answer(context.sessionId(), conversation, remoteTask);
	}

	/**
	 * The task's events. A stream that ends (or loses its connection) after the task
	 * started but before it settled is resubscribed once ({@code tasks/resubscribe}),
	 * which goes on from where the task is; the message is never sent again.
	 */
	private Mono<RemoteTask> streamed(URI endpoint, MessageSendParams params, RemoteTask remoteTask) {
		Flux<?> events = this.rpc.stream(endpoint, params)
			.doOnNext(remoteTask::accept)
			.onErrorResume((ex) -> remoteTask.taskId() != null && !remoteTask.settled() && isConnectionLoss(ex),
					(ex) -> Flux.empty());
		Mono<Void> rest = Mono.defer(() -> {
			String taskId = remoteTask.taskId();
			if (taskId == null || remoteTask.settled()) {
				return Mono.empty();
			}
			logger.debug("The stream of A2A remote '{}' ended before task {} did; resubscribing",
					LogSafe.text(this.remote.name()), LogSafe.text(taskId));
			return this.rpc.resubscribe(endpoint, taskId).doOnNext(remoteTask::accept).then();
		});
		return events.then(rest).then(Mono.fromSupplier(() -> remoteTask));
	}

	private String answer(String sessionId, Conversation conversation, RemoteTask remoteTask) {
		String contextId = (remoteTask.contextId() != null) ? remoteTask.contextId() : conversation.contextId();
		TaskState state = remoteTask.state();
		String name = "remote agent '" + this.remote.name() + "'";
		remember(sessionId, new Conversation(contextId, (state == TaskState.INPUT_REQUIRED) ? remoteTask.taskId() : null));
		if (state == null) {
			throw new ToolException(name + " ended its answer without a task state");
		}
		String status = remoteTask.statusText().isEmpty() ? "" : ": " + remoteTask.statusText();
		return switch (state) {
			case COMPLETED -> {
				String answer = remoteTask.answer();
				yield answer.isEmpty() ? name + " completed the task without text" : answer;
			}
			case INPUT_REQUIRED -> name + " needs more input to finish the task" + status + "\nCall '"
					+ this.remote.name() + "' again with the answer; it continues the same task.";
			case AUTH_REQUIRED -> throw new ToolException(name + " requires authentication it was not given" + status);
			case FAILED -> throw new ToolException(name + " failed the task" + status);
			case REJECTED -> throw new ToolException(name + " rejected the task" + status);
			case CANCELED -> throw new ToolException(name + " canceled the task" + status);
			default -> throw new ToolException(name + " stopped answering while the task was " + state.asString()
					+ " (the remote kept it; it may still finish there)");
		};
	}

	private ToolException failure(Throwable ex, URI endpoint) {
		if (ex instanceof ToolException tool) {
			return tool;
		}
		return new ToolException("remote agent '" + this.remote.name() + "' at " + endpoint + " " + reason(ex), ex);
	}

	/** What went wrong, for the model and the caller: never a stack trace. */
	private String reason(Throwable ex) {
		if (ex instanceof TimeoutException) {
			return "did not answer within " + this.remote.timeout();
		}
		if (ex instanceof WebClientResponseException response) {
			int status = response.getStatusCode().value();
			return "answered HTTP " + status + ((status == 401 || status == 403)
					? "; check the headers of agent.a2a.remotes." + this.remote.name() : "");
		}
		if (A2aJsonRpc.isConnectFailure(ex)) {
			return "could not be reached (" + root(ex).getClass().getSimpleName() + ")";
		}
		if (isConnectionLoss(ex)) {
			return "lost the connection before the task ended (" + root(ex).getClass().getSimpleName() + ")";
		}
		if (ex instanceof A2aJsonRpc.A2aRpcException rpc) {
			return "answered with error " + rpc.code() + ": " + RemoteTask.bounded(String.valueOf(rpc.getMessage()));
		}
		if (ex instanceof A2aJsonRpc.A2aProtocolException protocol) {
			return "answered with " + protocol.getMessage();
		}
		if (ex instanceof InterruptedException) {
			Thread.currentThread().interrupt();
			return "was not waited for: the call was canceled";
		}
		logger.warn("Calling A2A remote '{}' failed", LogSafe.text(this.remote.name()), LogSafe.throwable(ex));
		return "failed unexpectedly (" + ex.getClass().getSimpleName() + ")";
	}

	private static Throwable root(Throwable ex) {
		Throwable root = ex;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root;
	}

	/** A stream that ended abnormally after its response started (the connection closed). */
	private static boolean isConnectionLoss(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			String type = cause.getClass().getName();
			if (type.equals("reactor.netty.http.client.PrematureCloseException")
					|| cause instanceof IOException || cause instanceof WebClientRequestException) {
				return !A2aJsonRpc.isConnectFailure(ex);
			}
		}
		return false;
	}

	/** Best effort: a task left running on the remote when the call gives up is canceled. */
	private void cancel(Resolved resolved, RemoteTask remoteTask) {
		String taskId = remoteTask.taskId();
		if (taskId != null) {
			this.rpc.cancel(resolved.endpoint(), taskId)
				.timeout(Duration.ofSeconds(10))
				.subscribe(null, (ex) -> logger.debug("Canceling task {} of A2A remote '{}' failed: {}",
						LogSafe.text(taskId), LogSafe.text(this.remote.name()), LogSafe.text(ex.toString())));
		}
	}

	/** The card, fetched now if not known (blocking this tool thread). */
	private Resolved resolved() {
		Resolved resolved = this.resolved;
		if (resolved != null) {
			return resolved;
		}
		AgentCard card;
		try {
			card = this.rpc.card().timeout(this.remote.timeout()).block();
		}
		catch (RuntimeException ex) {
			Throwable cause = unwrap(ex);
			if (cause instanceof ToolException tool) {
				throw tool;
			}
			throw new ToolException("the Agent Card of remote agent '" + this.remote.name() + "' at "
					+ this.remote.cardUrl() + " " + reason(cause), ex);
		}
		if (card == null) {
			throw new ToolException("the Agent Card of remote agent '" + this.remote.name() + "' is empty");
		}
		return resolve(card);
	}

	private Resolved resolve(AgentCard card) {
		Resolved resolved = new Resolved(card, endpoint(card),
				card.capabilities() != null && card.capabilities().streaming());
		this.spec = new ToolSpec(this.remote.name(), describe(card), this.schema);
		this.resolved = resolved;
		return resolved;
	}

	/**
	 * The JSON-RPC endpoint the card names: its {@code url} when its preferred transport is
	 * JSON-RPC (the default), else its JSON-RPC interface. It must be on the configured
	 * URL's origin, as the configured headers (credentials) go there.
	 */
	private URI endpoint(AgentCard card) {
		String url = card.url();
		String preferred = card.preferredTransport();
		if (preferred != null && !JSONRPC.equalsIgnoreCase(preferred)) {
			url = null;
			if (card.additionalInterfaces() != null) {
				for (AgentInterface candidate : card.additionalInterfaces()) {
					if (JSONRPC.equalsIgnoreCase(candidate.transport())) {
						url = candidate.url();
					}
				}
			}
			if (url == null) {
				throw new ToolException("remote agent '" + this.remote.name() + "' speaks "
						+ RemoteTask.bounded(preferred) + ", not JSON-RPC, the only A2A transport agcore speaks");
			}
		}
		URI endpoint;
		try {
			endpoint = (url != null && !url.isBlank()) ? URI.create(url.strip()) : this.remote.url();
		}
		catch (IllegalArgumentException ex) {
			throw new ToolException("the Agent Card of remote agent '" + this.remote.name()
					+ "' names an endpoint that is not a URL", ex);
		}
		if (!sameOrigin(endpoint, this.remote.url())) {
			throw new ToolException("the Agent Card of remote agent '" + this.remote.name() + "' names the endpoint "
					+ RemoteTask.bounded(endpoint.toString()) + ", on another origin than " + this.remote.url()
					+ "; the configured headers are sent only to that origin");
		}
		return endpoint;
	}

	private static boolean sameOrigin(URI a, URI b) {
		return a.getScheme() != null && a.getScheme().equalsIgnoreCase(b.getScheme()) && a.getHost() != null
				&& a.getHost().equalsIgnoreCase(b.getHost()) && port(a) == port(b);
	}

	private static int port(URI uri) {
		return (uri.getPort() != -1) ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
	}

	private String describe(@Nullable AgentCard card) {
		String tail = " It does not see this conversation: put everything it needs in the task.";
		if (this.remote.description() != null) {
			return this.remote.description() + tail;
		}
		if (card == null) {
			return "Asks the remote agent '" + this.remote.name() + "' to do a task and returns its answer." + tail;
		}
		StringBuilder description = new StringBuilder("Asks the remote agent '").append(this.remote.name())
			.append("'");
		if (card.name() != null && !card.name().isBlank()) {
			description.append(" (").append(card.name().strip()).append(')');
		}
		description.append(" to do a task and returns its answer.");
		if (card.description() != null && !card.description().isBlank()) {
			description.append(' ').append(card.description().strip());
		}
		if (card.skills() != null && !card.skills().isEmpty()) {
			description.append(" Skills:");
			for (AgentSkill skill : card.skills()) {
				description.append(" ").append((skill.name() != null) ? skill.name() : skill.id());
				if (skill.description() != null && !skill.description().isBlank()) {
					description.append(" (").append(skill.description().strip()).append(')');
				}
				description.append(';');
			}
			description.setLength(description.length() - 1);
			description.append('.');
		}
		String text = description.toString();
		if (text.length() > MAX_DESCRIPTION_LENGTH) {
			text = text.substring(0, MAX_DESCRIPTION_LENGTH) + "...";
		}
		return text + tail;
	}

	private Conversation conversation(String sessionId) {
		synchronized (this.conversations) {
			Conversation conversation = this.conversations.get(sessionId);
			if (conversation != null) {
				return conversation;
			}
		}
		// the same session gets the same context after a restart, or on another instance
		String contextId = UUID
			.nameUUIDFromBytes((this.remote.name() + "\n" + sessionId).getBytes(StandardCharsets.UTF_8))
			.toString();
		return new Conversation(contextId, null);
	}

	private void remember(String sessionId, Conversation conversation) {
		synchronized (this.conversations) {
			this.conversations.put(sessionId, conversation);
		}
	}


	private static Throwable unwrap(RuntimeException ex) {
		// block() wraps checked exceptions (a timeout, an interruption)
		Throwable cause = ex.getCause();
		return (cause != null && ex.getClass().getName().startsWith("reactor.core.Exceptions")) ? cause : ex;
	}


	@Override
	public String toString() {
		return "A2aRemoteAgentTool '" + this.remote.name() + "' (" + this.remote.url() + ")";
	}

	/** The card, and what the calls need of it. */
	private record Resolved(AgentCard card, URI endpoint, boolean streaming) {
	}

	/** A session's A2A context, and the task waiting for its input, if any. */
	private record Conversation(String contextId, @Nullable String pendingTaskId) {
	}

}
