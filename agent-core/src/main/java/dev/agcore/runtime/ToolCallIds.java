package dev.agcore.runtime;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.ToolCall;

/**
 * Makes the tool call ids of one model response unique. Ids come from the model, and a
 * result is paired with its call by id: two calls sharing one would get each other's
 * results. A repeated id gets a suffix ({@code c1}, {@code c1_2}, {@code c1_3}).
 */
final class ToolCallIds {

	private ToolCallIds() {
	}

	static AssistantMessage unique(AssistantMessage message) {
		if (!hasDuplicates(message.toolCalls())) {
			return message;
		}
		Set<String> taken = new HashSet<>();
		message.toolCalls().forEach((call) -> taken.add(call.id()));
		Set<String> seen = new HashSet<>();
		List<ToolCall> calls = new ArrayList<>(message.toolCalls().size());
		for (ToolCall call : message.toolCalls()) {
			String id = call.id();
			if (!seen.add(id)) {
				int suffix = 2;
				while (taken.contains(call.id() + "_" + suffix)) {
					suffix++;
				}
				id = call.id() + "_" + suffix;
				taken.add(id);
				seen.add(id);
			}
			calls.add(id.equals(call.id()) ? call : new ToolCall(id, call.name(), call.arguments()));
		}
		return message.withToolCalls(calls);
	}

	private static boolean hasDuplicates(List<ToolCall> calls) {
		// most responses call one tool or none: no set for them
		if (calls.size() < 2) {
			return false;
		}
		Set<String> ids = new HashSet<>();
		for (ToolCall call : calls) {
			if (!ids.add(call.id())) {
				return true;
			}
		}
		return false;
	}

}
