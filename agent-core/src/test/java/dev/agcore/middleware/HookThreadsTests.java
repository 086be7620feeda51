package dev.agcore.middleware;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agcore.Tool;
import dev.agcore.memory.Conversation;
import dev.agcore.memory.DelegatingConversationStore;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.UserMessage;
import dev.agcore.middleware.annotation.AnnotatedMiddleware;
import dev.agcore.middleware.annotation.DynamicPrompt;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.method.MethodTools;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hooks, dynamic prompts and secret resolvers are user code that may block: they must
 * never run on an event-loop thread, wherever the model and the store answer.
 */
class HookThreadsTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	/** Every piece of user code that ran, in order. */
	private final List<String> ran = new CopyOnWriteArrayList<>();

	/** The user code that ran on a non-blocking thread, with the thread. */
	private final List<String> onEventLoop = new CopyOnWriteArrayList<>();

	/** Whether each model response was emitted on a non-blocking thread. */
	private final List<Boolean> modelOnEventLoop = new CopyOnWriteArrayList<>();

	@Test
	void synchronousHooksPromptsAndSecretResolversNeverRunOnAnEventLoopWhenCalled() {
		Agent agent = agentAnsweringOnEventLoop();

		StepVerifier.create(agent.invoke(AgentRequest.of("s1", "call the api")))
			.assertNext((result) -> assertThat(result.output()).isEqualTo("done"))
			.expectComplete()
			.verify(TIMEOUT);

		assertRanOffTheEventLoop();
	}

	@Test
	void synchronousHooksPromptsAndSecretResolversNeverRunOnAnEventLoopWhenStreamed() {
		Agent agent = agentAnsweringOnEventLoop();

		StepVerifier.create(agent.stream(AgentRequest.of("s1", "call the api")).last())
			.assertNext((event) -> assertThat(event).isInstanceOf(AgentEvent.Completed.class))
			.expectComplete()
			.verify(TIMEOUT);

		assertRanOffTheEventLoop();
	}

	@Test
	void synchronousHooksRunOnTheCallersThreadWhenItMayBlock() {
		List<String> threads = new CopyOnWriteArrayList<>();
		AgentMiddleware recording = new AgentMiddleware() {

			@Override
			public void beforeAgent(AgentContext context, List<Message> messages) {
				threads.add(Thread.currentThread().getName());
			}

			@Override
			public ChatResponse afterModel(AgentContext context, ChatRequest request, ChatResponse response) {
				threads.add(Thread.currentThread().getName());
				return response;
			}

		};
		Agent agent = Agent.builder().name("a").model(ScriptedChatModel.replaying(text("x"))).middleware(recording).build();

		agent.call("s1", "hi");

		assertThat(threads).as("no thread switch").containsExactly(Thread.currentThread().getName(),
				Thread.currentThread().getName());
	}

	@Test
	void reactiveHooksWaitWithoutBlockingAndComposeInOrderWithSynchronousOnes() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("hello"));
		Agent agent = Agent.builder()
			.name("ordered")
			.model(model)
			.middleware(new WaitingMiddleware())
			.middleware(new RecordingMiddleware())
			.build();

		StepVerifier.create(agent.invoke(AgentRequest.of("s1", "hi")))
			.assertNext((result) -> assertThat(result.output()).isEqualTo("hello (waited)"))
			.expectComplete()
			.verify(TIMEOUT);

		assertThat(this.ran).containsExactly("waiting.beforeAgent", "beforeAgent", "waiting.beforeModel",
				"beforeModel saw: waited", "afterModel", "waiting.afterModel", "afterAgent", "waiting.afterAgent");
		assertThat(model.requests()).singleElement()
			.satisfies((request) -> assertThat(request.messages().get(0)).isEqualTo(new SystemMessage("waited")));
		assertThat(this.onEventLoop).as("synchronous hooks after a Mono.delay").isEmpty();
	}

	@Test
	void aReactiveHookThatCompletesEmptyFailsTheTurnNamingTheMiddleware() {
		AgentMiddleware empty = new AgentMiddleware() {

			@Override
			public Mono<ChatRequest> beforeModelAsync(AgentContext context, ChatRequest request) {
				return Mono.empty();
			}

			@Override
			public String name() {
				return "empty";
			}

		};
		Agent agent = Agent.builder().name("a").model(ScriptedChatModel.replaying(text("x"))).middleware(empty).build();

		StepVerifier.create(agent.invoke(AgentRequest.of("s1", "hi")))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(MiddlewareException.class)
				.hasMessage("Middleware 'empty' returned null from beforeModel"))
			.verify(TIMEOUT);
	}

	private Agent agentAnsweringOnEventLoop() {
		ScriptedChatModel scripted = ScriptedChatModel.answering((request) -> {
			Message last = request.messages().get(request.messages().size() - 1);
			return (last instanceof UserMessage)
					? toolCalls(new ToolCall("c1", "call_api", "{\"apiKey\":\"<secret_ref:API_KEY>\"}"))
					: text("done");
		});
		return Agent.builder()
			.name("threads")
			.model(new EventLoopModel(scripted))
			.conversationStore(new EventLoopStore())
			.tools(MethodTools.from(new ApiTools()))
			.secretResolver((name) -> {
				record("secretResolver");
				return "secret";
			})
			.middleware(new RecordingMiddleware())
			.middleware(AnnotatedMiddleware.from(new Prompts(), Prompts.class, "prompts"))
			.build();
	}

	private void assertRanOffTheEventLoop() {
		assertThat(this.modelOnEventLoop).as("the model answered on an event loop").containsOnly(true);
		assertThat(this.ran).contains("beforeAgent", "beforeModel saw: (none)", "dynamicPrompt", "afterModel",
				"secretResolver", "tool", "afterAgent");
		assertThat(this.onEventLoop).isEmpty();
	}

	private void record(String code) {
		this.ran.add(code);
		if (Schedulers.isInNonBlockingThread()) {
			this.onEventLoop.add(code + " on " + Thread.currentThread().getName());
		}
	}

	/** Synchronous hooks that record where they ran. */
	private final class RecordingMiddleware implements AgentMiddleware {

		@Override
		public void beforeAgent(AgentContext context, List<Message> messages) {
			record("beforeAgent");
		}

		@Override
		public ChatRequest beforeModel(AgentContext context, ChatRequest request) {
			Message first = request.messages().get(0);
			record("beforeModel saw: " + ((first instanceof SystemMessage) ? first.text() : "(none)"));
			return request;
		}

		@Override
		public ChatResponse afterModel(AgentContext context, ChatRequest request, ChatResponse response) {
			record("afterModel");
			return response;
		}

		@Override
		public void afterAgent(AgentContext context, List<Message> messages) {
			record("afterAgent");
		}

	}

	/** Reactive hooks that wait (as I/O would) before they act; answers arrive on a parallel thread. */
	private final class WaitingMiddleware implements AgentMiddleware {

		private static final Duration WAIT = Duration.ofMillis(20);

		@Override
		public Mono<Void> beforeAgentAsync(AgentContext context, List<Message> messages) {
			return Mono.delay(WAIT).doOnNext((tick) -> HookThreadsTests.this.ran.add("waiting.beforeAgent")).then();
		}

		@Override
		public Mono<ChatRequest> beforeModelAsync(AgentContext context, ChatRequest request) {
			return Mono.delay(WAIT).map((tick) -> {
				HookThreadsTests.this.ran.add("waiting.beforeModel");
				List<Message> messages = new ArrayList<>(request.messages());
				messages.add(0, new SystemMessage("waited"));
				return new ChatRequest(messages, request.tools(), request.options());
			});
		}

		@Override
		public Mono<ChatResponse> afterModelAsync(AgentContext context, ChatRequest request, ChatResponse response) {
			return Mono.delay(WAIT).map((tick) -> {
				HookThreadsTests.this.ran.add("waiting.afterModel");
				return new ChatResponse(AssistantMessage.of(response.message().text() + " (waited)"), response.usage(),
						response.finishReason(), response.model());
			});
		}

		@Override
		public Mono<Void> afterAgentAsync(AgentContext context, List<Message> messages) {
			return Mono.delay(WAIT).doOnNext((tick) -> HookThreadsTests.this.ran.add("waiting.afterAgent")).then();
		}

	}

	/** A dynamic prompt that records where it ran. */
	public final class Prompts {

		@DynamicPrompt
		public String prompt(List<Message> messages) {
			record("dynamicPrompt");
			return "Be brief.";
		}

	}

	final class ApiTools {

		@Tool(name = "call_api", secrets = "apiKey")
		String call(String apiKey) {
			record("tool");
			return "called";
		}

	}

	/** A model whose answers arrive on a non-blocking thread, as a Netty client's do. */
	private final class EventLoopModel implements ChatModel {

		private final ChatModel delegate;

		EventLoopModel(ChatModel delegate) {
			this.delegate = delegate;
		}

		@Override
		public Mono<ChatResponse> call(ChatRequest request) {
			return this.delegate.call(request)
				.publishOn(Schedulers.parallel())
				.doOnNext((response) -> HookThreadsTests.this.modelOnEventLoop.add(Schedulers.isInNonBlockingThread()));
		}

		@Override
		public Flux<ChatChunk> stream(ChatRequest request) {
			return this.delegate.stream(request)
				.publishOn(Schedulers.parallel())
				.doOnComplete(() -> HookThreadsTests.this.modelOnEventLoop.add(Schedulers.isInNonBlockingThread()));
		}

	}

	/** A store that answers on a non-blocking thread, as a reactive database driver does. */
	private static final class EventLoopStore extends DelegatingConversationStore {

		EventLoopStore() {
			super(new InMemoryConversationStore());
		}

		@Override
		public Mono<Conversation> load(String sessionId) {
			return super.load(sessionId).publishOn(Schedulers.parallel());
		}

	}

}
