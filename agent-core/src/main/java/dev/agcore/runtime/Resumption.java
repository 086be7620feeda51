package dev.agcore.runtime;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.PendingTurn;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Continues turns paused for approval: checks the decisions against the pending calls,
 * applies edits and rejections, runs the approved calls, then hands the turn back to the
 * loop.
 */
final class Resumption {

	private static final Logger logger = LoggerFactory.getLogger(Resumption.class);

	private final DefaultAgent agent;

	private final ConversationStore store;

	Resumption(DefaultAgent agent, ConversationStore store) {
		this.agent = agent;
		this.store = store;
	}

	Mono<AgentResult> resume(ResumeRequest request, TurnListener listener) {
		String sessionId = request.sessionId();
		return this.store.loadPending(sessionId)
			.switchIfEmpty(Mono.error(() -> new ResumeException(
					"Session '" + sessionId + "' has no turn waiting for a decision")))
			.flatMap((pending) -> {
				check(request, pending);
				return this.store.claimPending(sessionId, pending).flatMap((claimed) -> {
					if (!claimed) {
						return Mono.error(new ResumeException(
								"The paused turn of session '" + sessionId + "' is already being resumed"));
					}
					// a failed or cancelled resumption leaves the turn paused, to be resumed again;
					// the store ignores the release once the turn was completed or paused anew
					return this.store.load(sessionId)
						.flatMap((history) -> continueTurn(request, pending, history, listener))
						.onErrorResume((ex) -> this.store.releasePending(sessionId, pending).then(Mono.error(ex)))
						.doOnCancel(() -> release(sessionId, pending));
				});
			});
	}

	/** Give the turn back after a cancellation, which has no subscriber left to wait for it. */
	private void release(String sessionId, PendingTurn pending) {
		this.store.releasePending(sessionId, pending)
			.subscribe(null, (ex) -> logger.warn("Could not give back the paused turn of session '{}' after its "
					+ "resumption was cancelled; it stays claimed", sessionId, ex));
	}

	private void check(ResumeRequest request, PendingTurn pending) {
		if (!pending.agentName().equals(this.agent.name())) {
			throw new ResumeException("Session '" + request.sessionId() + "' was paused by agent '"
					+ pending.agentName() + "'; resume it with that agent");
		}
		Set<String> pendingIds = new TreeSet<>();
		pending.pendingCalls().forEach((call) -> pendingIds.add(call.id()));
		Set<String> missing = new TreeSet<>(pendingIds);
		missing.removeAll(request.decisions().keySet());
		Set<String> unknown = new TreeSet<>(request.decisions().keySet());
		unknown.removeAll(pendingIds);
		if (!missing.isEmpty() || !unknown.isEmpty()) {
			throw new ResumeException("Decisions must name exactly the pending tool calls " + pendingIds
					+ (missing.isEmpty() ? "" : "; missing: " + missing) + (unknown.isEmpty() ? "" : "; unknown: " + unknown));
		}
	}

	private Mono<AgentResult> continueTurn(ResumeRequest request, PendingTurn pending, List<Message> history,
			TurnListener listener) {
		Set<String> approved = new HashSet<>();
		request.decisions().forEach((id, decision) -> {
			if (!(decision instanceof ToolDecision.Reject)) {
				approved.add(id);
			}
		});
		Turn turn = new Turn(this.agent.name(), request, history, pending, approved, this.agent.keyValueStore());
		List<ToolCall> toRun = new ArrayList<>();
		List<ToolResultMessage> rejected = new ArrayList<>();
		for (ToolCall call : turn.unansweredToolCalls()) {
			ToolDecision decision = request.decisions().get(call.id());
			if (decision instanceof ToolDecision.Reject reject) {
				rejected.add(ToolResultMessage.failure(call,
						"Error: a human rejected this call of tool '" + call.name() + "': " + reject.reason()));
			}
			else if (decision instanceof ToolDecision.Edit edit) {
				ToolCall edited = new ToolCall(call.id(), call.name(), edit.arguments());
				turn.replaceToolCall(edited);
				toRun.add(edited);
			}
			else {
				toRun.add(call);
			}
		}
		for (ToolResultMessage result : rejected) {
			listener.onToolCallCompleted(result);
		}
		turn.acceptToolResults(rejected.toArray(ToolResultMessage[]::new));
		Mono<Void> ran = toRun.isEmpty() ? Mono.empty() : this.agent.runTools(turn, toRun, listener);
		return ran.then(Mono.defer(() -> {
			turn.orderLastToolResults();
			return this.agent.loop(turn, listener);
		}));
	}

}
