package dev.agcore.autoconfigure.middleware;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.ModelCall;
import dev.agcore.middleware.annotation.AfterModel;
import dev.agcore.middleware.annotation.BeforeModel;
import dev.agcore.middleware.annotation.DynamicPrompt;
import dev.agcore.middleware.approval.HumanInTheLoopMiddleware;
import dev.agcore.middleware.builtin.ContextEditingMiddleware;
import dev.agcore.middleware.builtin.ModelCallLimitMiddleware;
import dev.agcore.middleware.builtin.ModelFallbackMiddleware;
import dev.agcore.middleware.builtin.ObservedMiddleware;
import dev.agcore.middleware.builtin.PiiRedactionMiddleware;
import dev.agcore.middleware.builtin.SummarizationMiddleware;
import dev.agcore.middleware.builtin.TodoListMiddleware;
import dev.agcore.middleware.builtin.ToolCallLimitMiddleware;
import dev.agcore.middleware.builtin.ToolRetryMiddleware;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.runtime.Agent;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolSpec;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.config.CustomScopeConfigurer;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Scope;
import org.springframework.context.annotation.ScopedProxyMode;
import org.springframework.context.support.SimpleThreadScope;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link MiddlewareAutoConfiguration}: bean and annotated middleware, their
 * order, and the chain each configured agent gets.
 */
class MiddlewareAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		// what the model is sent and echoes, unmarked: untrusted-content marking has its own tests
		.withPropertyValues("agent.untrusted-content.enabled=false")
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class))
		.withBean("tools", MiddlewareTestTools.class);

	@Test
	void middlewareBeansApplyToEveryAgentInBeanOrder() {
		CallLog log = new CallLog();
		this.contextRunner.withBean(CallLog.class, () -> log)
			.withUserConfiguration(OrderedMiddlewareConfiguration.class)
			.withBean("model", ChatModel.class, () -> ScriptedChatModel.answering((request) -> ScriptedChatModel.text("ok")))
			.withPropertyValues("agent.agents.first.provider=model", "agent.agents.second.provider=model")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				for (String name : List.of("first", "second")) {
					assertThat(names(context.getBean(name, Agent.class))).containsExactly("bean 'auditHooks'#audit",
							"orderedByClass", "orderedByBeanMethod", "orderedByInterface", "unordered");
				}
				context.getBean("first", Agent.class).call("s1", "hi");
				assertThat(log.entries).containsExactly("audit", "orderedByClass:before", "orderedByBeanMethod:before",
						"orderedByInterface:before", "unordered:before", "unordered:after", "orderedByInterface:after",
						"orderedByBeanMethod:after", "orderedByClass:after");
			});
	}

	@Test
	void defaultAgentGetsEveryMiddlewareBean() {
		this.contextRunner.withBean(CallLog.class, CallLog::new)
			.withUserConfiguration(OrderedMiddlewareConfiguration.class)
			.withBean("model", ChatModel.class, () -> ScriptedChatModel.answering((request) -> ScriptedChatModel.text("ok")))
			.run((context) -> assertThat(names(context.getBean("assistant", Agent.class))).hasSize(5));
	}

	@Test
	void agentCanListTheMiddlewareBeansItUsesInItsOwnOrder() {
		this.contextRunner.withBean(CallLog.class, CallLog::new)
			.withUserConfiguration(OrderedMiddlewareConfiguration.class)
			.withBean("model", ChatModel.class, () -> ScriptedChatModel.answering((request) -> ScriptedChatModel.text("ok")))
			.withPropertyValues("agent.agents.picky.middleware.use=unordered,auditHooks",
					"agent.agents.none.middleware.use=", "agent.agents.all.provider=model")
			.run((context) -> {
				assertThat(names(context.getBean("picky", Agent.class))).containsExactly("unordered",
						"bean 'auditHooks'#audit");
				assertThat(context.getBean("none", Agent.class).middleware()).isEmpty();
				assertThat(names(context.getBean("all", Agent.class))).hasSize(5);
			});
	}

	@Test
	void unknownMiddlewareBeanFailsNamingThePropertyAndTheKnownBeans() {
		this.contextRunner.withBean(CallLog.class, CallLog::new)
			.withUserConfiguration(OrderedMiddlewareConfiguration.class)
			.withBean("model", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.a.middleware.use=auditHooks,audit")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessage("agent.agents.a.middleware.use: unknown middleware bean 'audit'; middleware beans: "
						+ "[auditHooks, orderedByClass, orderedByBeanMethod, orderedByInterface, unordered]"));
		this.contextRunner.withBean("model", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.a.middleware.use=tools")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageStartingWith("agent.agents.a.middleware.use: bean 'tools' is no AgentMiddleware and has "
						+ "no hook-annotated methods"));
	}

	@Test
	void hookMethodWithWrongSignatureFailsStartupNamingMethodAndExpectedSignature() {
		this.contextRunner.withBean("badHooks", BadHooks.class)
			.withBean("model", ChatModel.class, () -> ScriptedChatModel.replaying())
			.run((context) -> assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessage("Invalid middleware hook in bean 'badHooks': Method " + BadHooks.class.getName()
						+ "#prompt is annotated @DynamicPrompt but has the wrong signature; expected "
						+ "String name([AgentContext context,] List<Message> messages)"));
	}

	@Test
	void middlewareBeanWithHookAnnotationsIsRegisteredOnce() {
		HookedMiddleware middleware = new HookedMiddleware();
		this.contextRunner.withBean("hooked", HookedMiddleware.class, () -> middleware)
			.withBean("model", ChatModel.class, () -> ScriptedChatModel.answering((request) -> ScriptedChatModel.text("ok")))
			.run((context) -> {
				Agent agent = context.getBean(Agent.class);
				assertThat(agent.middleware()).containsExactly(middleware);
				agent.call("s1", "hi");
				assertThat(middleware.calls).hasValue(1);
			});
	}

	@Test
	void onlyBeansWhoseTypeHasHooksAreCreatedAndOnlySingletonsAreScanned() {
		AtomicInteger plainCreated = new AtomicInteger();
		this.contextRunner
			.withBean("plain", Plain.class, () -> {
				plainCreated.incrementAndGet();
				return new Plain();
			}, (definition) -> definition.setLazyInit(true))
			.withBean("lazyHooks", LazyHooks.class, LazyHooks::new, (definition) -> definition.setLazyInit(true))
			.withBean("prototypeHooks", LazyHooks.class, LazyHooks::new,
					(definition) -> definition.setScope("prototype"))
			.withBean("model", ChatModel.class, () -> ScriptedChatModel.replaying())
			.run((context) -> {
				assertThat(plainCreated).hasValue(0);
				assertThat(names(context.getBean(Agent.class))).containsExactly("bean 'lazyHooks'#prompt");
			});
	}

	@Test
	void scopedProxyMiddlewareBeanIsUsedOnce() {
		this.contextRunner.withUserConfiguration(ScopedMiddlewareConfiguration.class)
			.withBean("model", ChatModel.class, () -> ScriptedChatModel.replaying())
			.run((context) -> assertThat(names(context.getBean(Agent.class))).containsExactly("scoped"));
	}

	@Test
	void hooksOfBeanDeclaredAsInterfaceAreFoundWhenAgentIsInjectedEarly() {
		this.contextRunner.withUserConfiguration(EarlyAgentConfiguration.class)
			.withBean("model", ChatModel.class, () -> ScriptedChatModel.replaying())
			.run((context) -> assertThat(names(context.getBean(Agent.class))).containsExactly("bean 'prompter'#prompt"));
	}

	@Test
	void humanInTheLoopWithoutToolsSuggestsTheListForms() {
		this.contextRunner.withBean("model", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.a.provider=model",
					"agent.agents.a.middleware.human-in-the-loop.enabled=true")
			.run((context) -> {
				AgentConfigurationException failure = (AgentConfigurationException) configurationFailure(
						context.getStartupFailure());
				assertThat(failure)
					.hasMessage("agent.agents.a.middleware.human-in-the-loop.tools must name at least one tool");
				assertThat(failure.getAction()).isEqualTo("List the tools that need approval, e.g. in YAML "
						+ "'tools: [delete_file, send_email]' or as "
						+ "agent.agents.a.middleware.human-in-the-loop.tools[0]=delete_file and "
						+ "agent.agents.a.middleware.human-in-the-loop.tools[1]=send_email, or remove "
						+ "agent.agents.a.middleware.human-in-the-loop.");
			});
		// the form suggested binds
		this.contextRunner.withBean("model", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.a.provider=model",
					"agent.agents.a.middleware.human-in-the-loop.tools[0]=delete_file",
					"agent.agents.a.middleware.human-in-the-loop.tools[1]=fetch")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void builtInsFromYamlAreCreatedInTheirFixedOrderAroundBeanMiddleware() {
		this.contextRunner.withBean(CallLog.class, CallLog::new)
			.withBean("unordered", Recording.class, () -> new Recording("unordered", new CallLog()))
			.withBean("model", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withBean("backup", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.a.provider=model",
					"agent.agents.a.middleware.human-in-the-loop.tools[0]=delete_file",
					"agent.agents.a.middleware.tool-retry.max-attempts=2",
					"agent.agents.a.middleware.model-fallback.models=backup",
					"agent.agents.a.middleware.context-editing.trigger-tokens=6000",
					"agent.agents.a.middleware.summarization.trigger-tokens=8000",
					"agent.agents.a.middleware.tool-call-limit.per-turn=20",
					"agent.agents.a.middleware.model-call-limit.per-turn=8",
					"agent.agents.a.middleware.pii.email=redact", "agent.agents.a.middleware.todo-list.enabled=true",
					"agent.agents.b.provider=model",
					"agent.agents.b.middleware.pii.enabled=false",
					"agent.agents.b.middleware.context-editing.enabled=true")
			.run((context) -> {
				assertThat(types(context.getBean("a", Agent.class))).containsExactly(PiiRedactionMiddleware.class,
						ModelCallLimitMiddleware.class, ToolCallLimitMiddleware.class, Recording.class,
						TodoListMiddleware.class, SummarizationMiddleware.class, ContextEditingMiddleware.class, ModelFallbackMiddleware.class,
						ToolRetryMiddleware.class, HumanInTheLoopMiddleware.class);
				assertThat(types(context.getBean("b", Agent.class))).containsExactly(Recording.class,
						ContextEditingMiddleware.class);
				// tools contributed by middleware count as the agent's tools
				assertThat(context.getBean("a", Agent.class).tools()).extracting(ToolSpec::name).contains("write_todos");
			});
	}

	@Test
	void humanInTheLoopTakesAListOfToolsOrAMapOfReasons() {
		this.contextRunner.withBean("model", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.list.middleware.human-in-the-loop.tools[0]=delete_file",
					"agent.agents.list.middleware.human-in-the-loop.tools[1]=fetch",
					"agent.agents.map.middleware.human-in-the-loop.tools.delete_file=Deleting cannot be undone")
			.run((context) -> {
				HumanInTheLoopMiddleware list = (HumanInTheLoopMiddleware) unwrap(
						context.getBean("list", Agent.class).middleware().get(0));
				assertThat(list.gatedTools()).containsExactlyInAnyOrder("delete_file", "fetch");
				HumanInTheLoopMiddleware map = (HumanInTheLoopMiddleware) unwrap(
						context.getBean("map", Agent.class).middleware().get(0));
				assertThat(map.gatedTools()).containsExactly("delete_file");
			});
	}

	@Test
	void invalidBuiltInSettingsFailNamingTheProperty() {
		assertFailure("agent.agents.a.middleware.model-call-limit.per-turn must be at least 1 (was -1)",
				"agent.agents.a.middleware.model-call-limit.per-turn=-1");
		assertFailure("agent.agents.a.middleware.model-call-limit: set per-turn or per-session",
				"agent.agents.a.middleware.model-call-limit.exit-behavior=fail");
		assertFailure("agent.agents.a.middleware.tool-call-limit.per-tool.fetch must be at least 1 (was 0)",
				"agent.agents.a.middleware.tool-call-limit.per-tool.fetch=0");
		assertFailure("agent.agents.a.middleware.tool-call-limit.per-tool: unknown tool 'search'; tools of this "
				+ "agent: [broken, delete_file, fetch, get_weather]",
				"agent.agents.a.middleware.tool-call-limit.per-tool.search=3");
		assertFailure("agent.agents.a.middleware.human-in-the-loop.tools: unknown tool 'send_email'; tools of this "
				+ "agent: [broken, delete_file, fetch, get_weather]",
				"agent.agents.a.middleware.human-in-the-loop.tools[0]=delete_file",
				"agent.agents.a.middleware.human-in-the-loop.tools[1]=send_email");
		assertFailure("agent.agents.a.middleware.model-fallback.models[1]: unknown model 'nope'; models: []; configured "
				+ "providers: []; ChatModel beans: [model]",
				"agent.agents.a.middleware.model-fallback.models=model,nope");
		assertFailure("agent.agents.a.middleware.summarization.model: unknown model 'cheap'; models: []; configured "
				+ "providers: []; ChatModel beans: [model]", "agent.agents.a.middleware.summarization.model=cheap");
		assertFailure("agent.agents.a.middleware.tool-retry.retry-on[0]: java.lang.String is not an exception type",
				"agent.agents.a.middleware.tool-retry.retry-on=java.lang.String");
		assertFailure("agent.agents.a.middleware.tool-retry.initial-backoff (PT20S) must not be longer than "
				+ "agent.agents.a.middleware.tool-retry.max-backoff (PT10S)",
				"agent.agents.a.middleware.tool-retry.initial-backoff=20s");
		assertFailure("agent.agents.a.middleware.context-editing.keep-tool-results must be at least 0 (was -2)",
				"agent.agents.a.middleware.context-editing.keep-tool-results=-2");
		assertFailure("agent.agents.a.middleware.pii: apply-to-input, apply-to-output and apply-to-tool-results "
				+ "are all false, so nothing would be checked", "agent.agents.a.middleware.pii.apply-to-input=false",
				"agent.agents.a.middleware.pii.apply-to-output=false");
	}

	@Test
	void modelCallLimitEndsTheTurnAndIsCounted() {
		ChatModel looping = ScriptedChatModel
			.answering((request) -> ScriptedChatModel.toolCalls(new ToolCall("c" + request.messages().size(),
					"get_weather", "{\"city\":\"Paris\"}")));
		this.contextRunner.withBean(SimpleMeterRegistry.class)
			.withBean("model", ChatModel.class, () -> looping)
			.withPropertyValues("agent.agents.a.middleware.model-call-limit.per-turn=2")
			.run((context) -> {
				Agent agent = context.getBean(Agent.class);
				assertThat(agent.call("s1", "weather?").output())
					.isEqualTo("Agent 'a' reached its model call limit (2 per turn) and stopped.");
				assertThat(context.getBean(MeterRegistry.class)
					.get("agent.limit.exceeded")
					.tags("agent", "a", "limit", "model_calls_per_turn")
					.counter()
					.count()).isEqualTo(1);
				assertThat(context.getBean(MeterRegistry.class)
					.get("agent.hook.events")
					.tags("agent", "a", "hook", "wrap_model_call", "middleware", "ModelCallLimitMiddleware")
					.counter()
					.count()).isEqualTo(3);
			});
	}

	@Test
	void toolCallLimitAnswersTheModelOrEndsTheTurn() {
		ChatModel model = ScriptedChatModel.answering((request) -> {
			if (request.messages().get(request.messages().size() - 1) instanceof dev.agcore.message.ToolResultMessage) {
				return ScriptedChatModel.text("done");
			}
			return ScriptedChatModel.toolCalls(new ToolCall("c1", "get_weather", "{\"city\":\"Paris\"}"),
					new ToolCall("c2", "get_weather", "{\"city\":\"Oslo\"}"));
		});
		this.contextRunner.withBean("model", ChatModel.class, () -> model)
			.withPropertyValues("agent.agents.answers.middleware.tool-call-limit.per-tool.get_weather=1",
					"agent.agents.ends.middleware.tool-call-limit.per-tool.get_weather=1",
					"agent.agents.ends.middleware.tool-call-limit.exit-behavior=end")
			.run((context) -> {
				MiddlewareTestTools tools = context.getBean(MiddlewareTestTools.class);
				var answered = context.getBean("answers", Agent.class).call("s1", "weather?");
				assertThat(answered.output()).isEqualTo("done");
				assertThat(answered.toolExecutions().get(1).result()).isEqualTo(
						"Error: tool call limit reached for 'get_weather' (1 per turn); the call to 'get_weather' was not run.");
				assertThat(context.getBean("ends", Agent.class).call("s2", "weather?").output())
					.isEqualTo("Agent 'ends' stopped: tool call limit reached for 'get_weather' (1 per turn).");
				assertThat(tools.calls()).containsExactly("get_weather:Paris", "get_weather:Paris");
			});
	}

	@Test
	void toolRetryRetriesOnlyTheConfiguredExceptions() {
		ChatModel model = ScriptedChatModel.answering((request) -> {
			Message last = request.messages().get(request.messages().size() - 1);
			if (last instanceof dev.agcore.message.ToolResultMessage result) {
				return ScriptedChatModel.text(result.text());
			}
			String tool = last.text().startsWith("fetch") ? "fetch" : "broken";
			return ScriptedChatModel.toolCalls(new ToolCall("c1", tool, "{\"" + (tool.equals("fetch") ? "url" : "input")
					+ "\":\"x\"}"));
		});
		this.contextRunner.withBean("model", ChatModel.class, () -> model)
			.withPropertyValues("agent.agents.a.middleware.tool-retry.retry-on=java.io.IOException",
					"agent.agents.a.middleware.tool-retry.initial-backoff=1ms",
					"agent.agents.a.middleware.tool-retry.max-backoff=5ms")
			.run((context) -> {
				Agent agent = context.getBean(Agent.class);
				MiddlewareTestTools tools = context.getBean(MiddlewareTestTools.class);
				assertThat(agent.call("s1", "fetch it").output()).isEqualTo("page x");
				assertThat(agent.call("s2", "break it").output()).contains("always broken");
				assertThat(tools.calls()).containsExactly("fetch:x", "fetch:x", "broken:x");
			});
	}

	@Test
	void modelFallbackSwitchesModelsAndIsCounted() {
		ChatModel primary = ScriptedChatModel.answering((request) -> {
			throw new dev.agcore.model.ModelServerException("scripted", 503, "overloaded");
		}).withModelName("primary-model");
		ChatModel backup = ScriptedChatModel.answering((request) -> ScriptedChatModel.text("from backup"))
			.withModelName("backup-model");
		this.contextRunner.withBean(SimpleMeterRegistry.class)
			.withBean("primary", ChatModel.class, () -> primary)
			.withBean("backup", ChatModel.class, () -> backup)
			.withPropertyValues("agent.agents.a.provider=primary",
					"agent.agents.a.middleware.model-fallback.models=backup")
			.run((context) -> {
				assertThat(context.getBean(Agent.class).call("s1", "hi").output()).isEqualTo("from backup");
				assertThat(context.getBean(MeterRegistry.class)
					.get("agent.model.fallbacks")
					.tags("agent", "a", "from", "scripted/primary-model", "to", "scripted/backup-model")
					.counter()
					.count()).isEqualTo(1);
			});
	}

	@Test
	void piiIsRedactedInWhatTheModelReceivesAndWhatIsStored() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> ScriptedChatModel.text("noted"));
		this.contextRunner.withBean("model", ChatModel.class, () -> model)
			.withPropertyValues("agent.agents.a.middleware.pii.email=redact")
			.run((context) -> {
				Agent agent = context.getBean(Agent.class);
				agent.call("s1", "Mail me at jane@example.com");
				assertThat(model.requests().get(0).messages()).last()
					.extracting(Message::text)
					.isEqualTo("Mail me at [REDACTED_EMAIL]");
				assertThat(agent.history("s1").block()).first()
					.extracting(Message::text)
					.isEqualTo("Mail me at [REDACTED_EMAIL]");
			});
	}

	@Test
	void summarizationUsesTheConfiguredModelAndContextEditingClearsOldResults() {
		ScriptedChatModel cheap = ScriptedChatModel.answering((request) -> ScriptedChatModel.text("they talked"));
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
			Message last = request.messages().get(request.messages().size() - 1);
			if (last instanceof dev.agcore.message.ToolResultMessage) {
				return ScriptedChatModel.text("It is sunny, as the weather tool says at some length.");
			}
			return ScriptedChatModel.toolCalls(new ToolCall("c" + request.messages().size(), "get_weather",
					"{\"city\":\"Paris\"}"));
		});
		this.contextRunner.withBean("model", ChatModel.class, () -> model)
			.withBean("cheap", ChatModel.class, () -> cheap)
			.withPropertyValues("agent.agents.a.provider=model", "agent.agents.a.middleware.summarization.model=cheap",
					"agent.agents.a.middleware.summarization.trigger-tokens=1",
					"agent.agents.a.middleware.summarization.keep-messages=2",
					"agent.agents.b.provider=model", "agent.agents.b.middleware.context-editing.trigger-tokens=1",
					"agent.agents.b.middleware.context-editing.keep-tool-results=0")
			.run((context) -> {
				Agent summarizing = context.getBean("a", Agent.class);
				summarizing.call("s1", "Weather in Paris?");
				summarizing.call("s1", "And again?");
				assertThat(cheap.requests()).isNotEmpty();
				Agent editing = context.getBean("b", Agent.class);
				int before = model.requests().size();
				editing.call("s2", "Weather in Paris?");
				ChatRequest second = model.requests().get(before + 1);
				assertThat(second.messages()).last()
					.extracting(Message::text)
					.isEqualTo(ContextEditingMiddleware.DEFAULT_PLACEHOLDER);
			});
	}

	private void assertFailure(String message, String... properties) {
		this.contextRunner.withBean("model", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.a.provider=model")
			.withPropertyValues(properties)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessage(message));
	}

	static Throwable configurationFailure(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof AgentConfigurationException) {
				return cause;
			}
		}
		throw new AssertionError("No AgentConfigurationException in " + failure, failure);
	}

	private static List<String> names(Agent agent) {
		return agent.middleware().stream().map(AgentMiddleware::name).toList();
	}

	private static List<Class<?>> types(Agent agent) {
		return agent.middleware().stream().map((middleware) -> unwrap(middleware).getClass()).collect(
				java.util.stream.Collectors.toList());
	}

	private static AgentMiddleware unwrap(AgentMiddleware middleware) {
		return (middleware instanceof ObservedMiddleware observed) ? observed.delegate() : middleware;
	}

	static class CallLog {

		final List<String> entries = new CopyOnWriteArrayList<>();

	}

	/** Records its before- and after-model hooks. */
	static class Recording implements AgentMiddleware {

		private final String name;

		private final CallLog log;

		Recording(String name, CallLog log) {
			this.name = name;
			this.log = log;
		}

		@Override
		public ChatRequest beforeModel(AgentContext context, ChatRequest request) {
			this.log.entries.add(this.name + ":before");
			return request;
		}

		@Override
		public ChatResponse afterModel(AgentContext context, ChatRequest request, ChatResponse response) {
			this.log.entries.add(this.name + ":after");
			return response;
		}

		@Override
		public String name() {
			return this.name;
		}

	}

	@Order(1)
	static class OrderedByClass extends Recording {

		OrderedByClass(CallLog log) {
			super("orderedByClass", log);
		}

	}

	static class OrderedByInterface extends Recording implements Ordered {

		OrderedByInterface(CallLog log) {
			super("orderedByInterface", log);
		}

		@Override
		public int getOrder() {
			return 3;
		}

	}

	@Order(0)
	static class AuditHooks {

		private final CallLog log;

		AuditHooks(CallLog log) {
			this.log = log;
		}

		@BeforeModel
		public ChatRequest audit(ChatRequest request) {
			this.log.entries.add("audit");
			return request;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OrderedMiddlewareConfiguration {

		// registered out of order on purpose

		@Bean
		Recording unordered(CallLog log) {
			return new Recording("unordered", log);
		}

		@Bean
		OrderedByInterface orderedByInterface(CallLog log) {
			return new OrderedByInterface(log);
		}

		@Bean
		@Order(2)
		Recording orderedByBeanMethod(CallLog log) {
			return new Recording("orderedByBeanMethod", log);
		}

		@Bean
		OrderedByClass orderedByClass(CallLog log) {
			return new OrderedByClass(log);
		}

		@Bean
		AuditHooks auditHooks(CallLog log) {
			return new AuditHooks(log);
		}

	}

	static class BadHooks {

		@DynamicPrompt
		public String prompt(String message) {
			return message;
		}

	}

	/** A middleware that also carries a hook annotation: used once, as a middleware. */
	static class HookedMiddleware implements AgentMiddleware {

		final AtomicInteger calls = new AtomicInteger();

		@Override
		@AfterModel
		public ChatResponse afterModel(AgentContext context, ChatRequest request, ChatResponse response) {
			this.calls.incrementAndGet();
			return response;
		}

		@Override
		public Mono<ChatResponse> wrapModelCall(AgentContext context, ChatRequest request, ModelCall next) {
			return next.call(request);
		}

	}

	static class Plain {

	}

	@Configuration(proxyBeanMethods = false)
	static class ScopedMiddlewareConfiguration {

		@Bean
		static CustomScopeConfigurer threadScope() {
			CustomScopeConfigurer configurer = new CustomScopeConfigurer();
			configurer.addScope("thread", new SimpleThreadScope());
			return configurer;
		}

		@Bean
		@Scope(scopeName = "thread", proxyMode = ScopedProxyMode.INTERFACES)
		AgentMiddleware scoped() {
			return new Recording("scoped", new CallLog());
		}

	}

	// the agent is created first, while the interface-typed bean after it does not exist yet
	@Configuration(proxyBeanMethods = false)
	static class EarlyAgentConfiguration {

		@Bean
		Object agentUser(Agent agent) {
			return agent.name();
		}

		@Bean
		Prompter prompter() {
			return new PrompterHooks();
		}

	}

	interface Prompter {

		String prompt(List<Message> messages);

	}

	static class PrompterHooks implements Prompter {

		@Override
		@DynamicPrompt
		public String prompt(List<Message> messages) {
			return "You are early.";
		}

	}

	static class LazyHooks {

		@DynamicPrompt
		public String prompt(List<Message> messages) {
			return "You are lazy.";
		}

	}

}
