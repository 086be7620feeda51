package dev.agcore.runtime;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;

/**
 * The tool calls of a turn's last model response and their results, in a turn's list of
 * messages: which calls wait for a result, results in call order, a call a human edited.
 * Only messages from {@code turnStart} on, the turn's own, are looked at.
 */
final class TurnToolCalls {

	private TurnToolCalls() {
	}

	/** Put a previously made call's arguments right after a human edited them. */
	static void replace(List<Message> messages, int turnStart, ToolCall edited) {
		for (int i = messages.size() - 1; i >= turnStart; i--) {
			if (messages.get(i) instanceof AssistantMessage assistant && assistant.hasToolCalls()) {
				List<ToolCall> calls = new ArrayList<>(assistant.toolCalls());
				calls.replaceAll((call) -> call.id().equals(edited.id()) ? edited : call);
				messages.set(i, assistant.withToolCalls(calls));
				return;
			}
		}
	}

	/** Sort the results that follow the last assistant message into call order. */
	static void orderLastResults(List<Message> messages, int turnStart) {
		int assistantIndex = lastAssistantIndex(messages, turnStart);
		if (assistantIndex < 0) {
			return;
		}
		List<ToolCall> calls = ((AssistantMessage) messages.get(assistantIndex)).toolCalls();
		List<Message> results = new ArrayList<>(messages.subList(assistantIndex + 1, messages.size()));
		results.sort(inCallOrder(calls));
		for (int i = 0; i < results.size(); i++) {
			messages.set(assistantIndex + 1 + i, results.get(i));
		}
	}

	/** The calls of the last model response that have no result yet. */
	static List<ToolCall> unanswered(List<Message> messages, int turnStart) {
		int assistantIndex = lastAssistantIndex(messages, turnStart);
		if (assistantIndex < 0) {
			return List.of();
		}
		List<ToolCall> unanswered = new ArrayList<>(((AssistantMessage) messages.get(assistantIndex)).toolCalls());
		for (int i = assistantIndex + 1; i < messages.size(); i++) {
			if (messages.get(i) instanceof ToolResultMessage result) {
				unanswered.removeIf((call) -> call.id().equals(result.toolCallId()));
			}
		}
		return unanswered;
	}

	static int lastAssistantIndex(List<Message> messages, int turnStart) {
		for (int i = messages.size() - 1; i >= turnStart; i--) {
			if (messages.get(i) instanceof AssistantMessage) {
				return i;
			}
		}
		return -1;
	}

	/** Orders tool results as their calls stand in the assistant message; others last. */
	static Comparator<Message> inCallOrder(List<ToolCall> calls) {
		return Comparator.comparingInt((message) -> callIndex(calls, message));
	}

	private static int callIndex(List<ToolCall> calls, Message message) {
		if (message instanceof ToolResultMessage result) {
			for (int i = 0; i < calls.size(); i++) {
				if (calls.get(i).id().equals(result.toolCallId())) {
					return i;
				}
			}
		}
		return Integer.MAX_VALUE;
	}

}
