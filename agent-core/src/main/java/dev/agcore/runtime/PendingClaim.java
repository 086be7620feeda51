package dev.agcore.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.PendingTurn;
import dev.agcore.memory.PendingTurn.PendingToolCall;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.model.Usage;
import dev.agcore.support.LogSafe;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * A resumption's claim on a paused turn. Keeps the turn in the store in step with what
 * the resumption did, so that a decided call never runs twice: once the decided calls
 * ran, the stored turn is replaced by one with their results and without their pending
 * calls; a resumption that fails or is cancelled gives back that turn, or, if it stopped
 * before, the claimed turn with the results known by then.
 */
final class PendingClaim {

	private static final Logger logger = LoggerFactory.getLogger(PendingClaim.class);

	private final ConversationStore store;

	private final String sessionId;

	private final PendingTurn claimed;

	private final Map<String, ToolDecision> decisions;

	/** Results of decided calls, by call id, as they complete; written by tool threads. */
	private final Map<String, ToolResultMessage> results = new ConcurrentHashMap<>();

	/**
	 * The one move of the claimed turn, started by the resumption or by its release,
	 * whichever comes first; resolves to the turn the claim then holds.
	 */
	private final AtomicReference<@Nullable Mono<PendingTurn>> progress = new AtomicReference<>();

	PendingClaim(ConversationStore store, String sessionId, PendingTurn claimed, Map<String, ToolDecision> decisions) {
		this.store = store;
		this.sessionId = sessionId;
		this.claimed = claimed;
		this.decisions = decisions;
	}

	PendingTurn claimed() {
		return this.claimed;
	}

	/** Wrap a listener so that the results of decided calls are known as soon as they are. */
	TurnListener recording(TurnListener listener) {
		return new TurnListener() {

			@Override
			public boolean streaming() {
				return listener.streaming();
			}

			@Override
			public void onText(String delta) {
				listener.onText(delta);
			}

			@Override
			public void onReasoning(String delta) {
				listener.onReasoning(delta);
			}

			@Override
			public void onTextReset() {
				listener.onTextReset();
			}

			@Override
			public void onUsage(Usage usage) {
				listener.onUsage(usage);
			}

			@Override
			public void onToolCallStarted(ToolCall call) {
				listener.onToolCallStarted(call);
			}

			@Override
			public void onToolCallCompleted(ToolResultMessage result) {
				if (PendingClaim.this.decisions.containsKey(result.toolCallId())) {
					PendingClaim.this.results.putIfAbsent(result.toolCallId(), result);
				}
				listener.onToolCallCompleted(result);
			}

		};
	}

	/**
	 * Record that the decided calls ran: the stored turn becomes {@code progressed}, still
	 * claimed.
	 * @param progressed the turn with the results of the decided calls
	 * @return completes when stored; fails if the stored turn changed meanwhile
	 */
	Mono<Void> progress(PendingTurn progressed) {
		return moveTo(progressed).flatMap((held) -> (held == progressed) ? Mono.<Void>empty()
				: Mono.error(new ResumeException("The paused turn of session '" + this.sessionId
						+ "' changed while it was resumed; its decided tool calls ran but the turn cannot go on")));
	}

	/**
	 * Give the turn back after a failure or a cancellation, with the results of the
	 * decided calls that completed, so they do not run again. The store ignores the
	 * release once the turn was completed or paused anew.
	 * @return completes when released
	 */
	Mono<Void> release() {
		return Mono.defer(() -> {
			Mono<PendingTurn> moved = this.progress.get();
			if (moved == null) {
				PendingTurn known = withKnownResults();
				moved = (known != null) ? moveTo(known) : Mono.just(this.claimed);
			}
			return moved.onErrorReturn(this.claimed).flatMap((held) -> this.store.releasePending(this.sessionId, held));
		});
	}

	/** Give the turn back after a cancellation, which has no subscriber left to wait for it. */
	void releaseDetached() {
		release().subscribe(null, (ex) -> logger.warn("Could not give back the paused turn of session '{}' after "
				+ "its resumption was cancelled; it stays claimed", LogSafe.text(this.sessionId),
				LogSafe.throwable(ex)));
	}

	/** Move the claimed turn, once; the move runs to its end even if its caller cancels. */
	private Mono<PendingTurn> moveTo(PendingTurn progressed) {
		Mono<PendingTurn> move = this.store.progressPending(this.sessionId, this.claimed, progressed)
			.map((moved) -> moved ? progressed : this.claimed)
			.cache();
		if (!this.progress.compareAndSet(null, move)) {
			return this.progress.get();
		}
		move.subscribe(null, (ex) -> logger.warn("Could not record the results of the decided tool calls of "
				+ "session '{}'; they may run again when the turn is resumed", LogSafe.text(this.sessionId),
				LogSafe.throwable(ex)));
		return move;
	}

	/**
	 * The claimed turn with the results of the decided calls known so far; the calls
	 * without one still wait for a decision. Null when no result is known.
	 */
	private @Nullable PendingTurn withKnownResults() {
		if (this.results.isEmpty()) {
			return null;
		}
		List<Message> messages = new ArrayList<>(this.claimed.messages());
		int last = messages.size() - 1;
		while (last >= 0 && !(messages.get(last) instanceof AssistantMessage)) {
			last--;
		}
		if (last < 0) {
			return null;
		}
		AssistantMessage assistant = (AssistantMessage) messages.get(last);
		// an edited call that ran is kept with the arguments it ran with
		List<ToolCall> calls = new ArrayList<>(assistant.toolCalls());
		calls.replaceAll((call) -> (this.results.containsKey(call.id())
				&& this.decisions.get(call.id()) instanceof ToolDecision.Edit edit)
						? new ToolCall(call.id(), call.name(), edit.arguments()) : call);
		messages.set(last, assistant.withToolCalls(calls));
		List<Message> answered = new ArrayList<>(messages.subList(last + 1, messages.size()));
		answered.addAll(this.results.values());
		answered.sort(Turn.inCallOrder(calls));
		messages.subList(last + 1, messages.size()).clear();
		messages.addAll(answered);
		List<PendingToolCall> waiting = this.claimed.pendingCalls()
			.stream()
			.filter((call) -> !this.results.containsKey(call.id()))
			.toList();
		return new PendingTurn(this.claimed.agentName(), messages, waiting, this.claimed.modelCalls(),
				this.claimed.inputTokens(), this.claimed.outputTokens());
	}

}
