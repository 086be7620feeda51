package dev.agcore.middleware.annotation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.MiddlewareException;
import dev.agcore.middleware.ModelCall;
import dev.agcore.middleware.ToolCallHandler;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.runtime.Agent;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static dev.agcore.testing.ScriptedChatModel.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class AnnotatedMiddlewareTests {

	@Test
	void everyAnnotatedMethodBecomesAMiddlewareThatRunsInTheLoop() {
		Hooks hooks = new Hooks();
		List<AgentMiddleware> middleware = AnnotatedMiddleware.from(hooks, Hooks.class, "hooks");
		ScriptedChatModel model = ScriptedChatModel.replaying(text("hello"));
		Agent agent = Agent.builder().name("a").model(model).systemPrompt("static prompt").middleware(middleware).build();

		agent.call("s1", "hi");

		assertThat(middleware).extracting(AgentMiddleware::name)
			.containsExactly("hooks#after", "hooks#afterModel", "hooks#before", "hooks#beforeModel", "hooks#prompt",
					"hooks#wrapModel", "hooks#wrapTool");
		assertThat(hooks.seen).contains("before:1", "beforeModel:s1", "wrapModel", "afterModel:hello", "after:2");
		assertThat(model.requests().get(0).messages().get(0)).isEqualTo(new SystemMessage("You are talking to s1 (1 messages so far)"));
	}

	@Test
	void methodsReturningAMonoAreReactiveHooksTheLoopWaitsFor() {
		ReactiveHooks hooks = new ReactiveHooks();
		List<AgentMiddleware> middleware = AnnotatedMiddleware.from(hooks, ReactiveHooks.class, "reactive");
		ScriptedChatModel model = ScriptedChatModel.replaying(text("hello"));
		Agent agent = Agent.builder().name("a").model(model).middleware(middleware).build();

		String output = agent.call("s1", "hi").output();

		assertThat(hooks.seen).containsExactly("before:1", "afterModel:hello", "after:2");
		assertThat(output).isEqualTo("hello!");
		assertThat(model.requests().get(0).messages()).extracting(Message::text)
			.containsExactly("Prompt for s1", "hi", "from beforeModel");
	}

	@Test
	void wrongSignatureFailsNamingTheMethodAndTheExpectedSignature() {
		assertThatExceptionOfType(MiddlewareException.class)
			.isThrownBy(() -> AnnotatedMiddleware.from(new BadHooks(), BadHooks.class, "bad"))
			.withMessage("Method " + BadHooks.class.getName() + "#prompt is annotated @DynamicPrompt but has the wrong"
					+ " signature; expected String name([AgentContext context,] List<Message> messages)");
	}

	@Test
	void detectsWhetherAClassDeclaresHooks() {
		assertThat(AnnotatedMiddleware.hasHooks(Hooks.class)).isTrue();
		assertThat(AnnotatedMiddleware.hasHooks(String.class)).isFalse();
	}

	static class Hooks {

		final List<String> seen = new CopyOnWriteArrayList<>();

		@BeforeAgent
		public void before(List<Message> messages) {
			this.seen.add("before:" + messages.size());
		}

		@AfterAgent
		public void after(AgentContext context, List<Message> messages) {
			this.seen.add("after:" + messages.size());
		}

		@BeforeModel
		ChatRequest beforeModel(AgentContext context, ChatRequest request) {
			this.seen.add("beforeModel:" + context.sessionId());
			return request;
		}

		@AfterModel
		public ChatResponse afterModel(ChatRequest request, ChatResponse response) {
			this.seen.add("afterModel:" + response.message().text());
			return response;
		}

		@WrapModelCall
		public Mono<ChatResponse> wrapModel(ChatRequest request, ModelCall next) {
			this.seen.add("wrapModel");
			return next.call(request);
		}

		@WrapToolCall
		public Mono<ToolResultMessage> wrapTool(ToolCall call, ToolCallHandler next) {
			return next.call(call);
		}

		@DynamicPrompt
		public String prompt(AgentContext context, List<Message> messages) {
			return "You are talking to " + context.sessionId() + " (" + messages.size() + " messages so far)";
		}

	}

	static class ReactiveHooks {

		final List<String> seen = new CopyOnWriteArrayList<>();

		@BeforeAgent
		public Mono<Void> before(List<Message> messages) {
			return Mono.delay(Duration.ofMillis(5)).doOnNext((tick) -> this.seen.add("before:" + messages.size())).then();
		}

		@BeforeModel
		public Mono<ChatRequest> beforeModel(ChatRequest request) {
			List<Message> messages = new ArrayList<>(request.messages());
			messages.add(new UserMessage("from beforeModel"));
			return Mono.delay(Duration.ofMillis(5))
				.map((tick) -> new ChatRequest(messages, request.tools(), request.options()));
		}

		@DynamicPrompt
		public Mono<String> prompt(AgentContext context, List<Message> messages) {
			return Mono.just("Prompt for " + context.sessionId());
		}

		@AfterModel
		public Mono<ChatResponse> afterModel(ChatRequest request, ChatResponse response) {
			this.seen.add("afterModel:" + response.message().text());
			return Mono.just(ChatResponse.of(AssistantMessage.of(response.message().text() + "!")));
		}

		@AfterAgent
		public Mono<Void> after(List<Message> messages) {
			return Mono.fromRunnable(() -> this.seen.add("after:" + messages.size()));
		}

	}

	static class BadHooks {

		@DynamicPrompt
		public String prompt(String notMessages) {
			return notMessages;
		}

	}

}
