package dev.agcore.runtime;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

import dev.agcore.audit.AuditEvent;
import dev.agcore.memory.Conversation;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.PendingTurn;
import dev.agcore.memory.SessionContextBlock;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import reactor.core.publisher.Mono;

/**
 * Continues turns paused for approval: checks the decisions against the pending calls,
 * applies edits and rejections, runs the approved calls, then hands the turn back to the
 * loop.
 */
final class Resumption {

	private final DefaultAgent agent;

	private final ConversationStore store;

	Resumption(DefaultAgent agent, ConversationStore store) {
		this.agent = agent;
		this.store = store;
	}

	Mono<AgentResult> resume(ResumeRequest request, TurnListener listener, TurnScope scope) {
		String sessionId = request.sessionId();
		// before the claim: a model the agent does not allow leaves the turn as it is
		TurnSetup setup = this.agent.setup(request.options(), null);
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
					// a failed or cancelled resumption leaves the turn paused, to be resumed again,
					// with the results of the decided calls that ran, so they never run twice
					PendingClaim claim = new PendingClaim(this.store, sessionId, pending, request.decisions());
					return this.store.load(sessionId)
						.zipWith(this.agent.session(sessionId))
						.flatMap((loaded) -> continueTurn(request, claim, setup, loaded.getT1(),
								loaded.getT2(), listener, scope))
						.onErrorResume((ex) -> claim.release().then(Mono.error(ex)))
						.doOnCancel(claim::releaseDetached);
				});
			});
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
		if (pendingIds.isEmpty() && !unknown.isEmpty()) {
			// an earlier resumption ran the decided calls, then failed or was cancelled
			throw new ResumeException("Session '" + request.sessionId() + "' has no tool calls waiting for a "
					+ "decision: the calls decided before ran and their results are kept; resume the turn with no "
					+ "decisions to continue (got decisions for " + unknown + ")");
		}
		if (!missing.isEmpty() || !unknown.isEmpty()) {
			Set<String> decided = answered(pending);
			decided.retainAll(unknown);
			throw new ResumeException("Decisions must name exactly the pending tool calls " + pendingIds
					+ (missing.isEmpty() ? "" : "; missing: " + missing) + (unknown.isEmpty() ? "" : "; unknown: " + unknown)
					+ (decided.isEmpty() ? "" : "; already decided, with results kept: " + decided));
		}
	}

	/** The ids of the calls of the paused turn that have a result. */
	private static Set<String> answered(PendingTurn pending) {
		Set<String> ids = new TreeSet<>();
		for (Message message : pending.messages()) {
			if (message instanceof ToolResultMessage result) {
				ids.add(result.toolCallId());
			}
		}
		return ids;
	}

	private Mono<AgentResult> continueTurn(ResumeRequest request, PendingClaim claim, TurnSetup setup,
			Conversation history, SessionContextBlock.Snapshot session, TurnListener listener, TurnScope scope) {
		PendingTurn pending = claim.claimed();
		Set<String> approved = new HashSet<>();
		request.decisions().forEach((id, decision) -> {
			if (!(decision instanceof ToolDecision.Reject)) {
				approved.add(id);
			}
		});
		Turn turn = new Turn(this.agent.name(), request, history, pending, approved, this.agent.keyValueStore(),
				scope);
		turn.setup(setup);
		turn.session(session);
		if (pending.pendingCalls().isEmpty()) {
			// the decided calls ran in an earlier resumption: go on from where it stopped
			this.agent.finishIfReturnsDirectly(turn, listener);
			return this.agent.loop(turn, listener);
		}
		TurnListener recording = claim.recording(listener);
		List<ToolCall> toRun = new ArrayList<>();
		List<ToolResultMessage> rejected = new ArrayList<>();
		for (ToolCall call : turn.unansweredToolCalls()) {
			ToolDecision decision = request.decisions().get(call.id());
			if (decision instanceof ToolDecision.Reject reject) {
				auditDecision(request, call, "rejected", reject.reason());
				rejected.add(ToolResultMessage.failure(call,
						"Error: a human rejected this call of tool '" + call.name() + "': " + reject.reason()));
			}
			else if (decision instanceof ToolDecision.Edit edit) {
				ToolCall edited = new ToolCall(call.id(), call.name(), edit.arguments());
				auditDecision(request, edited, "edited", "");
				turn.replaceToolCall(edited);
				toRun.add(edited);
			}
			else {
				auditDecision(request, call, "approved", "");
				toRun.add(call);
			}
		}
		for (ToolResultMessage result : rejected) {
			recording.onToolCallCompleted(result);
		}
		turn.acceptToolResults(rejected.toArray(ToolResultMessage[]::new));
		Mono<Void> ran = toRun.isEmpty() ? Mono.empty() : this.agent.runTools(turn, toRun, recording);
		return ran.then(Mono.defer(() -> {
			turn.orderLastToolResults();
			// a turn that pauses again is saved anew when the loop ends; otherwise the results
			// are stored before anything else (a model call, a hook) can fail
			Mono<Void> recorded = turn.isInterrupted() ? Mono.empty() : claim.progress(turn.toPending());
			return recorded.then(Mono.defer(() -> this.agent.loop(turn, listener)));
		}));
	}

	// secret references, not values, are in a call's arguments; personal data is redacted by the auditor
	private void auditDecision(ResumeRequest request, ToolCall call, String outcome, String detail) {
		this.agent.auditor()
			.publish(AuditEvent.Kind.APPROVAL, this.agent.name(), request.sessionId(), request.userId(), call.name(),
					call.id(), call.arguments(), UnaryOperator.identity(), outcome, detail);
	}

}
