package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;

import dev.agcore.memory.PendingTurn;
import dev.agcore.message.Message;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.model.ChatModel;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolSpec;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * An agent: a model, a system prompt and tools, run in a loop until the model answers
 * without asking for tools. Thread-safe; one instance serves every session.
 */
public interface Agent {

	/**
	 * Return the agent's name, unique in an application.
	 * @return the name
	 */
	String name();

	/**
	 * Return the model the agent calls.
	 * @return the model
	 */
	ChatModel model();

	/**
	 * Return the system prompt sent before every conversation, empty for none.
	 * @return the system prompt
	 */
	String systemPrompt();

	/**
	 * Return the tools offered to the model, as the model sees them.
	 * @return the tool specs
	 */
	List<ToolSpec> tools();

	/**
	 * Return the tools in this agent's scope, with their metadata (permission, category,
	 * timeout...), in the order the model sees them.
	 * @return the tools
	 */
	List<ToolCallback> toolCallbacks();

	/**
	 * Return the middleware of this agent, outermost first.
	 * @return the middleware
	 */
	default List<AgentMiddleware> middleware() {
		return List.of();
	}

	/**
	 * Return the maximum number of model calls in one turn.
	 * @return the bound
	 */
	int maxIterations();

	/**
	 * Return how long one turn may run before it fails with a
	 * {@link TurnTimeoutException}. Implementations of their own that bound turns
	 * differently override it.
	 * @return the bound, {@link AgentBuilder#DEFAULT_TURN_TIMEOUT} by default
	 */
	default Duration turnTimeout() {
		return AgentBuilder.DEFAULT_TURN_TIMEOUT;
	}

	/**
	 * Return the stored conversation of a session, oldest message first. Sessions live in
	 * the agent's conversation store; agents sharing a store share session ids.
	 * @param sessionId the session
	 * @return the messages; empty for an unknown session
	 */
	Mono<List<Message>> history(String sessionId);

	/**
	 * Return the turn of a session that is paused for approval, if any: the messages it
	 * has so far (not yet in the {@linkplain #history history}) and the calls waiting for
	 * a decision. For a client that shows a paused turn again after a restart or a reload.
	 * @param sessionId the session
	 * @return the paused turn, or empty when none is paused
	 */
	default Mono<PendingTurn> pendingTurn(String sessionId) {
		return Mono.empty();
	}

	/**
	 * Run one turn. The turn's messages are appended to the session's conversation only
	 * if the turn ends without an error.
	 * @param request the request
	 * @return the result; fails with a {@link dev.agcore.model.ModelException} when the
	 * model fails after retries
	 */
	Mono<AgentResult> invoke(AgentRequest request);

	/**
	 * Run one turn, emitting what happens as it happens. The stream ends with exactly one
	 * {@link AgentEvent.Completed} or {@link AgentEvent.Failed} event and never with an
	 * error signal. The conversation stored is the same {@link #invoke} would store.
	 * @param request the request
	 * @return the events
	 */
	Flux<AgentEvent> stream(AgentRequest request);

	/**
	 * Continue a turn that paused for approval ({@link AgentResult.Status#INTERRUPTED}),
	 * with a decision for each pending tool call. Works across restarts when the
	 * conversation store is persistent. Decided calls never run twice: if a resumption
	 * fails or is cancelled after they ran, the turn waits with their results and no
	 * pending calls, and is continued with no decisions.
	 * @param request the decisions
	 * @return the result of the continued turn; fails with {@link ResumeException} when
	 * there is nothing to resume or the decisions do not match the pending calls
	 */
	Mono<AgentResult> resume(ResumeRequest request);

	/**
	 * Continue a paused turn, emitting events as {@link #stream} does.
	 * @param request the decisions
	 * @return the events
	 */
	Flux<AgentEvent> resumeStream(ResumeRequest request);

	/**
	 * Run one turn and wait for the result. For callers on threads that may block; never
	 * call it on an event-loop thread.
	 * @param sessionId the session
	 * @param message the user's message
	 * @return the result
	 */
	default AgentResult call(String sessionId, String message) {
		return call(AgentRequest.of(sessionId, message));
	}

	/**
	 * Run one turn and wait for the result. For callers on threads that may block.
	 * @param request the request
	 * @return the result
	 */
	default AgentResult call(AgentRequest request) {
		AgentResult result = invoke(request).block();
		if (result == null) {
			throw new IllegalStateException("Agent '" + name() + "' completed without a result");
		}
		return result;
	}

	/**
	 * Run one turn whose answer is a Java object: the JSON schema of the type (from the
	 * generator typed tools use) is sent as the model's native structured-output option
	 * where it has one ({@link dev.agcore.model.ModelCapability#STRUCTURED_OUTPUT}), else
	 * as instructions; the final answer is parsed (code fences and prose around the JSON
	 * are dropped), mapped to the type and validated with Bean Validation when it is on the
	 * class path. The built agent asks the model once more, in the same turn, with what
	 * was wrong; tools work as usual. This default, for agents of one's own, only checks
	 * the answer of {@link #invoke(AgentRequest)}.
	 * @param <T> the type
	 * @param request the request
	 * @param type the type of the answer
	 * @return the answer and the turn's result, whose output is the answer's JSON text;
	 * fails with {@link StructuredOutputException} when the answer is still invalid or the
	 * turn did not complete (an interrupted turn included)
	 */
	default <T> Mono<StructuredResult<T>> invokeStructured(AgentRequest request, Class<T> type) {
		return Mono.defer(() -> {
			StructuredOutput<T> structured = StructuredOutput.of(type);
			AgentRequest asked = StructuredOutput.isNative(model())
					? request.withOptions(structured.options(request.options(), true))
					: new AgentRequest(request.sessionId(), request.message() + "\n\n" + structured.instructions(),
							request.state(), request.userId(), request.options(), request.media(), request.instructions(),
							request.locale());
			return invoke(asked).map((result) -> StructuredOutput.result(name(), result, structured));
		});
	}

	/**
	 * Run one turn whose answer is a Java object; see {@link #invokeStructured}.
	 * @param <T> the type
	 * @param request the request
	 * @param type the type of the answer
	 * @return the answer
	 */
	default <T> Mono<T> invoke(AgentRequest request, Class<T> type) {
		return invokeStructured(request, type).map(StructuredResult::value);
	}

	/**
	 * Run one turn whose answer is a Java object, and wait for it. For callers on threads
	 * that may block; see {@link #invokeStructured}.
	 * @param <T> the type
	 * @param request the request
	 * @param type the type of the answer
	 * @return the answer
	 * @throws StructuredOutputException if the answer is invalid after one retry
	 */
	default <T> T call(AgentRequest request, Class<T> type) {
		T value = invoke(request, type).block();
		if (value == null) {
			throw new IllegalStateException("Agent '" + name() + "' completed without a result");
		}
		return value;
	}

	/**
	 * Start building an agent.
	 * @return a new builder
	 */
	static AgentBuilder builder() {
		return new AgentBuilder();
	}

}
