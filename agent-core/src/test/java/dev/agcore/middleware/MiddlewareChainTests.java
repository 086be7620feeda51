package dev.agcore.middleware;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agcore.context.PropagatedContext;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.FinishReason;
import dev.agcore.model.Usage;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chain skips hooks no middleware has and runs synchronous hooks in place off an
 * event loop; what they see and the order they run in stay those of the chain rules.
 */
class MiddlewareChainTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private static final ChatRequest REQUEST = new ChatRequest(List.of(new UserMessage("hi")), List.of(),
			ChatOptions.DEFAULTS);

	private static final ChatResponse RESPONSE = new ChatResponse(AssistantMessage.of("hello"), Usage.EMPTY,
			FinishReason.STOP, "model");

	private final List<String> ran = new CopyOnWriteArrayList<>();

	private final List<String> threads = new CopyOnWriteArrayList<>();

	@Test
	void aChainKnowsWhichHooksItsMiddlewareHave() {
		AgentMiddleware toolsOnly = new AgentMiddleware() {
			@Override
			public Mono<ToolResultMessage> wrapToolCall(AgentContext context, ToolCall call, ToolCallHandler next) {
				return next.call(call);
			}
		};
		AgentMiddleware beforeModelAsync = new AgentMiddleware() {
			@Override
			public Mono<ChatRequest> beforeModelAsync(AgentContext context, ChatRequest request) {
				return Mono.just(request);
			}
		};

		MiddlewareChain tools = MiddlewareChain.of(List.of(toolsOnly));
		MiddlewareChain model = MiddlewareChain.of(List.of(toolsOnly, beforeModelAsync));

		assertThat(tools.hasBeforeAgent()).isFalse();
		assertThat(tools.hasAfterAgent()).isFalse();
		assertThat(tools.hasBeforeModel()).isFalse();
		assertThat(tools.hasAfterModel()).isFalse();
		assertThat(model.hasBeforeModel()).isTrue();
		assertThat(model.hasAfterModel()).isFalse();
		assertThat(MiddlewareChain.empty().hasBeforeAgent()).isFalse();
	}

	@Test
	void synchronousAndReactiveHooksRunInChainOrder() {
		MiddlewareChain chain = MiddlewareChain
			.of(List.of(new Synchronous("a"), new Reactive("b"), new Synchronous("c")));

		StepVerifier.create(chain.beforeModel(null, REQUEST)).expectNextCount(1).expectComplete().verify(TIMEOUT);
		StepVerifier.create(chain.afterModel(null, REQUEST, RESPONSE)).expectNextCount(1).expectComplete()
			.verify(TIMEOUT);
		StepVerifier.create(chain.beforeAgent(null, List.of())).expectComplete().verify(TIMEOUT);
		StepVerifier.create(chain.afterAgent(null, List.of())).expectComplete().verify(TIMEOUT);

		assertThat(this.ran).containsExactly("a.beforeModel", "b.beforeModel", "c.beforeModel", "c.afterModel",
				"b.afterModel", "a.afterModel", "a.beforeAgent", "b.beforeAgent", "c.beforeAgent", "c.afterAgent",
				"b.afterAgent", "a.afterAgent");
	}

	@Test
	void aSynchronousHookSeesWhatTheLastOneReturned() {
		AgentMiddleware addsMessage = new AgentMiddleware() {
			@Override
			public ChatRequest beforeModel(AgentContext context, ChatRequest request) {
				List<Message> messages = new ArrayList<>(request.messages());
				messages.add(new UserMessage("more"));
				return new ChatRequest(messages, request.tools(), request.options());
			}
		};
		MiddlewareChain chain = MiddlewareChain.of(List.of(addsMessage, addsMessage));

		StepVerifier.create(chain.beforeModel(null, REQUEST))
			.assertNext((request) -> assertThat(request.messages()).extracting(Message::text)
				.containsExactly("hi", "more", "more"))
			.expectComplete()
			.verify(TIMEOUT);
	}

	@Test
	void aSynchronousHookRunsOnTheSubscribingThreadWithTheCallersContextOpen() {
		ThreadLocal<String> caller = new ThreadLocal<>();
		PropagatedContext context = () -> {
			caller.set("the caller's");
			return () -> caller.remove();
		};
		String[] seen = new String[2];
		AgentMiddleware recording = new AgentMiddleware() {
			@Override
			public ChatRequest beforeModel(AgentContext agentContext, ChatRequest request) {
				seen[0] = Thread.currentThread().getName();
				seen[1] = caller.get();
				return request;
			}
		};

		Mono<ChatRequest> hooks = MiddlewareChain.of(List.of(recording))
			.beforeModel(null, REQUEST)
			.contextWrite((ctx) -> ctx.put(PropagatedContext.CONTEXT_KEY, context));
		StepVerifier.create(hooks).expectNextCount(1).expectComplete().verify(TIMEOUT);

		assertThat(seen[0]).isEqualTo(Thread.currentThread().getName());
		assertThat(seen[1]).isEqualTo("the caller's");
		assertThat(caller.get()).isNull();
	}

	@Test
	void aSynchronousHookReachedOnAnEventLoopRunsOffIt() {
		Mono<ChatRequest> hooks = Mono.just(REQUEST)
			.publishOn(Schedulers.parallel())
			.flatMap((request) -> MiddlewareChain.of(List.of(new Synchronous("a"))).beforeModel(null, request));
		StepVerifier.create(hooks).expectNextCount(1).expectComplete().verify(TIMEOUT);

		assertThat(this.ran).containsExactly("a.beforeModel");
		assertThat(this.threads).noneMatch((name) -> name.startsWith("parallel"));
	}

	@Test
	void aSynchronousHookThatReturnsNullFailsNamingTheMiddleware() {
		AgentMiddleware broken = new AgentMiddleware() {
			@Override
			public ChatResponse afterModel(AgentContext context, ChatRequest request, ChatResponse response) {
				return null;
			}

			@Override
			public String name() {
				return "broken";
			}
		};

		StepVerifier.create(MiddlewareChain.of(List.of(broken)).afterModel(null, REQUEST, RESPONSE))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(MiddlewareException.class)
				.hasMessage("Middleware 'broken' returned null from afterModel"))
			.verify(TIMEOUT);
	}

	private final class Synchronous implements AgentMiddleware {

		private final String name;

		Synchronous(String name) {
			this.name = name;
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

		private void record(String hook) {
			MiddlewareChainTests.this.ran.add(this.name + "." + hook);
			MiddlewareChainTests.this.threads.add(Thread.currentThread().getName());
		}

	}

	private final class Reactive implements AgentMiddleware {

		private final String name;

		Reactive(String name) {
			this.name = name;
		}

		@Override
		public Mono<Void> beforeAgentAsync(AgentContext context, List<Message> messages) {
			return later("beforeAgent").then();
		}

		@Override
		public Mono<Void> afterAgentAsync(AgentContext context, List<Message> messages) {
			return later("afterAgent").then();
		}

		@Override
		public Mono<ChatRequest> beforeModelAsync(AgentContext context, ChatRequest request) {
			return later("beforeModel").thenReturn(request);
		}

		@Override
		public Mono<ChatResponse> afterModelAsync(AgentContext context, ChatRequest request, ChatResponse response) {
			return later("afterModel").thenReturn(response);
		}

		// completes on another thread, as I/O would
		private Mono<Long> later(String hook) {
			return Mono.delay(Duration.ofMillis(5))
				.doOnNext((tick) -> MiddlewareChainTests.this.ran.add(this.name + "." + hook));
		}

	}

}
