package dev.agcore.middleware.builtin;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.runtime.TestTools;
import dev.agcore.tool.ToolCallback;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tools, contexts and assertions shared by the built-in middleware tests.
 */
final class BuiltinTestTools {

	private BuiltinTestTools() {
	}

	static ToolCallback tool(String name, TestTools.Body body) {
		return TestTools.tool(name, body);
	}

	/** A tool that counts its calls and answers with its name and the call id. */
	static ToolCallback counting(String name, AtomicInteger calls) {
		return tool(name, (args, ctx) -> {
			calls.incrementAndGet();
			return name + " " + ctx.toolCallId();
		});
	}

	/**
	 * Assert that every tool result answers a call of an earlier assistant message, and
	 * every call of an assistant message has a result.
	 */
	static void assertWellFormed(List<Message> messages) {
		Set<String> open = new HashSet<>();
		for (Message message : messages) {
			if (message instanceof AssistantMessage assistant) {
				assertThat(open).as("calls without results before %s", assistant).isEmpty();
				assistant.toolCalls().stream().map(ToolCall::id).forEach(open::add);
			}
			else if (message instanceof ToolResultMessage result) {
				assertThat(open).as("result %s answers an earlier call", result.toolCallId())
					.contains(result.toolCallId());
				open.remove(result.toolCallId());
			}
			else {
				assertThat(open).as("calls without results before %s", message).isEmpty();
			}
		}
	}

	/** A context for calling hooks directly, outside an agent loop. */
	static AgentContext context(String sessionId, Map<String, Throwable> toolFailures) {
		Map<String, Object> attributes = new HashMap<>();
		return new AgentContext() {

			@Override
			public String agentName() {
				return "direct";
			}

			@Override
			public String sessionId() {
				return sessionId;
			}

			@Override
			public Map<String, Object> state() {
				return Map.of();
			}

			@Override
			public int modelCalls() {
				return 1;
			}

			@Override
			public Map<String, Object> attributes() {
				return attributes;
			}

			@Override
			public Throwable toolFailure(String toolCallId) {
				return toolFailures.get(toolCallId);
			}

		};
	}

}
