package dev.agcore.middleware;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.TestTools;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolCallback;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

class MiddlewareOrderingTests {

	private final List<String> calls = Collections.synchronizedList(new ArrayList<>());

	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void hooksRunInChainOrderOnCallAndStreamPaths(boolean streaming) {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "a", "{}"), new ToolCall("c2", "b", "{}")), text("done"));
		Agent agent = Agent.builder().name("ordered").model(model)
			.tool(tool("a")).tool(tool("b"))
			.middleware(List.of(new Recording("m1"), new Recording("m2"), new Recording("m3")))
			.build();

		if (streaming) {
			List<AgentEvent> events = agent.stream(AgentRequest.of("s", "go")).collectList().block(Duration.ofSeconds(5));
			assertThat(events).last().isInstanceOf(AgentEvent.Completed.class);
		}
		else {
			agent.call("s", "go");
		}

		List<String> model1 = List.of("m1.beforeModel", "m2.beforeModel", "m3.beforeModel", "m1.wrapModel>",
				"m2.wrapModel>", "m3.wrapModel>", "m3.wrapModel<", "m2.wrapModel<", "m1.wrapModel<", "m3.afterModel",
				"m2.afterModel", "m1.afterModel");
		List<String> expected = new ArrayList<>();
		expected.addAll(List.of("m1.beforeAgent", "m2.beforeAgent", "m3.beforeAgent"));
		expected.addAll(model1);
		List<String> toolCalls = new ArrayList<>(this.calls.subList(15, 15 + 14));
		expected.addAll(model1);
		expected.addAll(List.of("m3.afterAgent", "m2.afterAgent", "m1.afterAgent"));
		// tool calls run in parallel, so the two calls may interleave; each one nests in order
		List<String> withoutTools = new ArrayList<>(this.calls);
		withoutTools.subList(15, 15 + 14).clear();
		assertThat(withoutTools).containsExactlyElementsOf(expected);
		for (String id : List.of("c1", "c2")) {
			assertThat(toolCalls.stream().filter((c) -> c.contains(id)).toList()).containsExactly("m1.wrapTool>" + id,
					"m2.wrapTool>" + id, "m3.wrapTool>" + id, "tool:" + id, "m3.wrapTool<" + id, "m2.wrapTool<" + id,
					"m1.wrapTool<" + id);
		}
	}

	@Test
	void beforeHooksChangeWhatTheModelSeesAndWhatIsStored() {
		InMemoryConversationStore store = new InMemoryConversationStore();
		ScriptedChatModel model = ScriptedChatModel.replaying(text("My card is 4111"));
		AgentMiddleware redact = new AgentMiddleware() {
			@Override
			public void beforeAgent(AgentContext context, List<Message> messages) {
				int last = messages.size() - 1;
				messages.set(last, new UserMessage(messages.get(last).text().replace("secret", "[redacted]")));
			}

			@Override
			public ChatResponse afterModel(AgentContext context, ChatRequest request, ChatResponse response) {
				return new ChatResponse(dev.agcore.message.AssistantMessage.of(response.message().text().replace("4111", "****")),
						response.usage(), response.finishReason(), response.model());
			}
		};
		Agent agent = Agent.builder().name("a").model(model).conversationStore(store).middleware(redact).build();

		AgentResult result = agent.call("s", "my secret is x");

		assertThat(model.requests().get(0).messages()).extracting(Message::text).containsExactly("my [redacted] is x");
		assertThat(result.output()).isEqualTo("My card is ****");
		assertThat(store.load("s").block().messages()).extracting(Message::text)
			.containsExactly("my [redacted] is x", "My card is ****");
	}

	@Test
	void rewritingHistoryReplacesTheStoredConversation() {
		InMemoryConversationStore store = new InMemoryConversationStore();
		ScriptedChatModel model = ScriptedChatModel.replaying(text("one"), text("two"));
		AgentMiddleware compact = new AgentMiddleware() {
			@Override
			public void beforeAgent(AgentContext context, List<Message> messages) {
				if (messages.size() > 1) {
					Message input = messages.get(messages.size() - 1);
					messages.clear();
					messages.add(new UserMessage("(summary of earlier turns)"));
					messages.add(input);
				}
			}
		};
		Agent agent = Agent.builder().name("a").model(model).conversationStore(store).middleware(compact).build();

		agent.call("s", "first");
		AgentResult second = agent.call("s", "second");

		assertThat(store.load("s").block().messages()).extracting(Message::text)
			.containsExactly("(summary of earlier turns)", "second", "two");
		assertThat(second.messages()).extracting(Message::text).containsExactly("second", "two");
	}

	@Test
	void failingHookStopsTheStreamWithAClearErrorEventAndStoresNothing() {
		InMemoryConversationStore store = new InMemoryConversationStore();
		AgentMiddleware broken = new AgentMiddleware() {
			@Override
			public ChatRequest beforeModel(AgentContext context, ChatRequest request) {
				throw new MiddlewareException("quota service unavailable");
			}
		};
		Agent agent = Agent.builder().name("a").model(ScriptedChatModel.replaying(text("never")))
			.conversationStore(store).middleware(broken).build();

		List<AgentEvent> events = agent.stream(AgentRequest.of("s", "hi")).collectList().block(Duration.ofSeconds(5));

		assertThat(events).containsExactly(new AgentEvent.Failed("MiddlewareException", "quota service unavailable"));
		assertThat(store.load("s").block().messages()).isEmpty();
	}

	@Test
	void wrapModelCallMayCallNextSeveralTimes() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("draft"), text("final"));
		AgentMiddleware twice = new AgentMiddleware() {
			@Override
			public Mono<ChatResponse> wrapModelCall(AgentContext context, ChatRequest request, ModelCall next) {
				return next.call(request).flatMap((first) -> next.call(request));
			}
		};
		Agent agent = Agent.builder().name("a").model(model).middleware(twice).build();

		assertThat(agent.call("s", "hi").output()).isEqualTo("final");
		assertThat(model.requests()).hasSize(2);
	}

	private ToolCallback tool(String name) {
		return TestTools.tool(name, (arguments, context) -> {
			this.calls.add("tool:" + context.toolCallId());
			return name;
		});
	}

	private final class Recording implements AgentMiddleware {

		private final String name;

		Recording(String name) {
			this.name = name;
		}

		private void record(String event) {
			MiddlewareOrderingTests.this.calls.add(this.name + "." + event);
		}

		@Override
		public void beforeAgent(AgentContext context, List<Message> messages) {
			record("beforeAgent");
		}

		@Override
		public void afterAgent(AgentContext context, List<Message> messages) {
			record("afterAgent");
		}

		@Override
		public ChatRequest beforeModel(AgentContext context, ChatRequest request) {
			record("beforeModel");
			return request;
		}

		@Override
		public ChatResponse afterModel(AgentContext context, ChatRequest request, ChatResponse response) {
			record("afterModel");
			return response;
		}

		@Override
		public Mono<ChatResponse> wrapModelCall(AgentContext context, ChatRequest request, ModelCall next) {
			return Mono.defer(() -> {
				record("wrapModel>");
				return next.call(request).doOnSuccess((r) -> record("wrapModel<"));
			});
		}

		@Override
		public Mono<ToolResultMessage> wrapToolCall(AgentContext context, ToolCall call, ToolCallHandler next) {
			return Mono.defer(() -> {
				record("wrapTool>" + call.id());
				return next.call(call).doOnSuccess((r) -> record("wrapTool<" + call.id()));
			});
		}

	}

}
