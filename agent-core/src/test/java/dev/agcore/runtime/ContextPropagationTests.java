package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.agcore.context.ContextCapture;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.middleware.annotation.AnnotatedMiddleware;
import dev.agcore.middleware.annotation.DynamicPrompt;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextImpl;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the caller's context (Spring Security's context, the MDC) reaches the
 * threads where a turn's tools, hooks and sub-agents run, and leaves them after.
 */
class ContextPropagationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final Scheduler tools = Schedulers.newSingle("tools");

	private final Map<String, Object> seen = new ConcurrentHashMap<>();

	@AfterEach
	void clear() {
		SecurityContextHolder.clearContext();
		MDC.clear();
		this.tools.dispose();
	}

	private Agent agent(String name, ChatModel model, Object... hooks) {
		AgentBuilder builder = Agent.builder()
			.name(name)
			.model(model)
			.toolScheduler(this.tools)
			.tool(TestTools.tool("whoami", (args, context) -> {
				Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
				this.seen.put(name + ".user", (authentication != null) ? authentication.getName() : "nobody");
				this.seen.put(name + ".thread", Thread.currentThread());
				Map<String, String> mdc = MDC.getCopyOfContextMap();
				this.seen.put(name + ".mdc", (mdc != null) ? mdc : Map.of());
				return "ok";
			}));
		for (Object hook : hooks) {
			builder.middleware(AnnotatedMiddleware.from(hook, hook.getClass(), "test"));
		}
		return builder.build();
	}

	private static ScriptedChatModel callingWhoami() {
		return ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "whoami", "{}")), text("done"));
	}

	@Test
	void callersSecurityContextIsSeenByAToolOnAnotherThread() {
		SecurityContextHolder.setContext(new SecurityContextImpl(new TestingAuthenticationToken("alice", "pw")));

		agent("lead", callingWhoami()).call("s1", "who am I?");

		assertThat(this.seen).containsEntry("lead.user", "alice");
		assertThat(this.seen.get("lead.thread")).isNotSameAs(Thread.currentThread());
		assertThat(securityContextOnToolThread()).isNull();
	}

	@Test
	void callersSecurityContextIsSeenByASubAgentsTool() {
		Agent child = agent("child", callingWhoami());
		Agent lead = Agent.builder()
			.name("lead")
			.model(ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "child", "{\"task\":\"who?\"}")),
					text("done")))
			.tool(SubAgentTool.of(child))
			.build();
		SecurityContextHolder.setContext(new SecurityContextImpl(new TestingAuthenticationToken("alice", "pw")));

		lead.call("s1", "ask the child");

		assertThat(this.seen).containsEntry("child.user", "alice");
		assertThat(this.seen.get("child.mdc")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
			.containsEntry("agent", "child")
			.containsEntry("session", "s1/child/c1");
	}

	@Test
	void reactiveCallersSecurityContextIsSeenByAToolThroughTheHolder() {
		Agent agent = agent("lead", callingWhoami());

		agent.invoke(AgentRequest.of("s1", "who am I?"))
			.contextWrite(ReactiveSecurityContextHolder.withAuthentication(new TestingAuthenticationToken("bob", "pw")))
			.block(TIMEOUT);

		assertThat(this.seen).containsEntry("lead.user", "bob");
		assertThat(SecurityContextHolder.getContext().getAuthentication()).isNull();
		assertThat(securityContextOnToolThread()).isNull();
	}

	@Test
	void callersMdcAndTheTurnsKeysAreSeenByAToolAndADynamicPromptAndLeaveNoTrace() {
		MDC.put("request", "r-1");
		DynamicPromptHook hook = new DynamicPromptHook();
		// the model answers on a non-blocking thread, so the hook hops to bounded-elastic
		ChatModel model = onParallel(callingWhoami());

		agent("lead", model, hook).call("s1", "hello");

		@SuppressWarnings("unchecked")
		Map<String, String> inTool = (Map<String, String>) this.seen.get("lead.mdc");
		assertThat(inTool).containsEntry("request", "r-1")
			.containsEntry("agent", "lead")
			.containsEntry("session", "s1")
			.containsKey("turn")
			.doesNotContainKey("run");
		assertThat(hook.mdc).hasSize(2).allSatisfy((mdc) -> assertThat(mdc).containsEntry("request", "r-1")
			.containsEntry("agent", "lead")
			.containsEntry("session", "s1")
			.containsEntry("turn", inTool.get("turn")));
		assertThat(hook.threads).anySatisfy((thread) -> assertThat(thread).isNotSameAs(Thread.currentThread()));
		// nothing left behind: the caller's MDC is its own again, the tool's thread is clean
		assertThat(MDC.getCopyOfContextMap()).containsExactly(Map.entry("request", "r-1"));
		assertThat(Mono.fromCallable(() -> String.valueOf(MDC.getCopyOfContextMap()))
			.subscribeOn(this.tools)
			.block(TIMEOUT)).isIn("null", "{}");
	}

	@Test
	void eachTurnHasItsOwnTurnId() {
		Agent agent = agent("lead", ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "whoami", "{}")),
				text("done"), toolCalls(new ToolCall("c2", "whoami", "{}")), text("done")));

		agent.call("s1", "one");
		String first = ((Map<?, ?>) this.seen.get("lead.mdc")).get("turn").toString();
		agent.call("s1", "two");
		String second = ((Map<?, ?>) this.seen.get("lead.mdc")).get("turn").toString();

		assertThat(first).isNotBlank().isNotEqualTo(second);
	}

	@Test
	void withoutCaptureTheMdcStillCarriesTheTurnsKeysButNoSecurityContext() {
		SecurityContextHolder.setContext(new SecurityContextImpl(new TestingAuthenticationToken("alice", "pw")));
		Agent agent = Agent.builder()
			.name("lead")
			.model(callingWhoami())
			.toolScheduler(this.tools)
			.contextCapture(ContextCapture.NONE)
			.tool(TestTools.tool("whoami", (args, context) -> {
				Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
				this.seen.put("user", (authentication != null) ? authentication.getName() : "nobody");
				this.seen.put("agent", String.valueOf(MDC.get("agent")));
				return "ok";
			}))
			.build();

		agent.call("s1", "who am I?");

		assertThat(this.seen).containsEntry("user", "nobody").containsEntry("agent", "lead");
	}

	private Object securityContextOnToolThread() {
		return Mono.fromCallable(() -> String.valueOf(SecurityContextHolder.getContext().getAuthentication()))
			.subscribeOn(this.tools)
			.map((name) -> "null".equals(name) ? "" : name)
			.filter((name) -> !name.isEmpty())
			.block(TIMEOUT);
	}

	private static ChatModel onParallel(ScriptedChatModel model) {
		return new ChatModel() {

			@Override
			public Mono<ChatResponse> call(ChatRequest request) {
				return model.call(request).publishOn(Schedulers.parallel());
			}

			@Override
			public reactor.core.publisher.Flux<dev.agcore.model.ChatChunk> stream(ChatRequest request) {
				return model.stream(request).publishOn(Schedulers.parallel());
			}

			@Override
			public String providerName() {
				return model.providerName();
			}

			@Override
			public String modelName() {
				return model.modelName();
			}

		};
	}

	/** A {@code @DynamicPrompt} hook that records the MDC and thread it ran with. */
	static class DynamicPromptHook {

		final List<Map<String, String>> mdc = new java.util.concurrent.CopyOnWriteArrayList<>();

		final List<Thread> threads = new java.util.concurrent.CopyOnWriteArrayList<>();

		@DynamicPrompt
		public String prompt(List<Message> conversation) {
			Map<String, String> values = MDC.getCopyOfContextMap();
			this.mdc.add((values != null) ? values : Map.of());
			this.threads.add(Thread.currentThread());
			return "You are helpful.";
		}

	}

}
