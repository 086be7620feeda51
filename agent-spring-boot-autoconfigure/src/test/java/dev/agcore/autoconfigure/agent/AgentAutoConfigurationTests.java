package dev.agcore.autoconfigure.agent;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.agcore.Tool;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.autoconfigure.WeatherTools;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatModelRegistry;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.observation.MicrometerAgentMetrics;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.TurnTimeoutException;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolRegistry;
import dev.agcore.tool.ToolSpec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.CustomScopeConfigurer;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.context.annotation.Scope;
import org.springframework.context.annotation.ScopedProxyMode;
import org.springframework.context.support.SimpleThreadScope;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AgentAutoConfiguration}, together with the auto-configurations it
 * builds on.
 */
class AgentAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				AgentAutoConfiguration.class));

	@Test
	void withoutModelsThereAreNoAgents() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(Agent.class);
			assertThat(context.getBean(AgentRegistry.class).all()).isEmpty();
			assertThat(context.getBean(ConversationStore.class)).isInstanceOf(InMemoryConversationStore.class);
			assertThat(context.getBean(AgentMetrics.class)).isSameAs(AgentMetrics.NOOP);
		});
	}

	@Test
	void singleModelGetsDefaultAssistantWithAllTools() {
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withBean("weatherTools", WeatherTools.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(Agent.class).hasBean("assistant");
				Agent agent = context.getBean(Agent.class);
				assertThat(agent.name()).isEqualTo("assistant");
				assertThat(toolNames(agent)).containsExactlyInAnyOrder("get_weather", "get_forecast");
				assertThat(context.getBean(AgentRegistry.class).get("assistant")).isSameAs(agent);
			});
	}

	@Test
	void singleProviderGetsDefaultAssistant() {
		this.contextRunner
			.withPropertyValues("agent.providers.openai.base-url=http://localhost:1/v1",
					"agent.providers.openai.model=gpt-4o-mini")
			.run((context) -> assertThat(context).hasSingleBean(Agent.class)
				.getBean("assistant", Agent.class)
				.satisfies((agent) -> assertThat(agent.model().providerName()).isEqualTo("openai")));
	}

	@Test
	void twoModelsGetNoDefaultAgent() {
		this.contextRunner.withBean("first", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withBean("second", ChatModel.class, () -> ScriptedChatModel.replaying())
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(Agent.class));
	}

	@Test
	void userAgentBeanPreventsDefaultAgentAndJoinsRegistry() {
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withUserConfiguration(UserAgentConfiguration.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(Agent.class).doesNotHaveBean("assistant");
				assertThat(context.getBean(AgentRegistry.class).all()).extracting(Agent::name).containsExactly("custom");
			});
	}

	@Test
	void configuredAgentUsesChatModelBeanByName() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				ScriptedChatModel.toolCalls(new ToolCall("call-1", "get_weather", "{\"city\":\"Paris\"}")),
				ScriptedChatModel.text("It is sunny in Paris."));
		this.contextRunner.withBean("myModel", ChatModel.class, () -> model)
			.withBean("weatherTools", WeatherTools.class)
			.withPropertyValues("agent.agents.assistant.provider=myModel",
					"agent.agents.assistant.system-prompt=You are helpful.",
					"agent.agents.assistant.tools=get_weather", "agent.agents.assistant.max-iterations=4",
					"agent.agents.assistant.tool-timeout=5s")
			.run((context) -> {
				Agent agent = context.getBean("assistant", Agent.class);
				assertThat(agent.model()).isSameAs(model);
				assertThat(agent.systemPrompt()).isEqualTo("You are helpful.");
				assertThat(agent.maxIterations()).isEqualTo(4);
				assertThat(toolNames(agent)).containsExactly("get_weather");
				AgentResult result = agent.call("session-1", "Weather in Paris?");
				assertThat(result.output()).isEqualTo("It is sunny in Paris.");
				assertThat(result.toolExecutions()).singleElement()
					.satisfies((execution) -> assertThat(execution.result()).isEqualTo("Sunny, 21 C in Paris"));
				assertThat(context.getBean(WeatherTools.class).calls()).isEqualTo(1);
			});
	}

	@Test
	void emptyToolListGivesNoTools() {
		this.contextRunner.withBean("myModel", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withBean("weatherTools", WeatherTools.class)
			.withPropertyValues("agent.agents.assistant.provider=myModel", "agent.agents.assistant.tools=")
			.run((context) -> assertThat(toolNames(context.getBean("assistant", Agent.class))).isEmpty());
	}

	@Test
	void providerMayBeOmittedWithSingleModel() {
		this.contextRunner.withBean("myModel", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.helper.system-prompt=Help.")
			.run((context) -> assertThat(context.getBean("helper", Agent.class).model())
				.isSameAs(context.getBean("myModel")));
	}

	@Test
	void multipleAgentsAreRegisteredAndQualified() {
		this.contextRunner.withBean("myModel", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.writer.system-prompt=Write.",
					"agent.agents.reviewer.system-prompt=Review.")
			.withUserConfiguration(QualifiedConsumerConfiguration.class)
			.run((context) -> {
				assertThat(context).getBeans(Agent.class).containsOnlyKeys("writer", "reviewer");
				assertThat(context.getBean(AgentRegistry.class).all()).extracting(Agent::name)
					.containsExactlyInAnyOrder("writer", "reviewer");
				assertThat(context.getBean(AgentConsumer.class).agent().systemPrompt()).isEqualTo("Review.");
				assertThat(context.getBeanProvider(Agent.class).getIfUnique()).isNull();
			});
	}

	@Test
	void singleConfiguredAgentIsInjectableAsAgent() {
		this.contextRunner.withBean("myModel", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.support.system-prompt=Support.")
			.withUserConfiguration(PlainConsumerConfiguration.class)
			.run((context) -> assertThat(context.getBean(AgentConsumer.class).agent().name()).isEqualTo("support"));
	}

	@Test
	void userAgentBeanJoinsConfiguredAgents() {
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.assistant.provider=scripted")
			.withUserConfiguration(UserAgentConfiguration.class)
			.run((context) -> assertThat(context.getBean(AgentRegistry.class).all()).extracting(Agent::name)
				.containsExactlyInAnyOrder("assistant", "custom"));
	}

	@Test
	void userAgentBeanOfTheSameNameReplacesConfiguredAgent() {
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.custom.provider=scripted")
			.withUserConfiguration(UserAgentConfiguration.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(Agent.class);
				assertThat(context.getBean("custom", Agent.class).systemPrompt()).isEqualTo("I am custom.");
			});
	}

	@Test
	void otherBeanNamedLikeAgentFails() {
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withBean("assistant", String.class, () -> "not an agent")
			.withPropertyValues("agent.agents.assistant.provider=scripted")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("agent.agents.assistant: the bean name 'assistant' is already used"));
	}

	@Test
	void scopedProxyBeansAreSeenOnce() {
		this.contextRunner.withUserConfiguration(ScopedProxyConfiguration.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(ChatModelRegistry.class).beanNames()).containsExactly("scripted");
			// one model, not two, so the default agent is there
			Agent agent = context.getBean("assistant", Agent.class);
			assertThat(toolNames(agent)).containsExactly("echo");
			assertThat(context.getBean(ToolRegistry.class).names()).containsExactly("echo");
		});
	}

	@Test
	void toolMethodsOfBeanDeclaredAsInterfaceAreFoundWhenAgentIsInjectedEarly() {
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withUserConfiguration(EarlyAgentConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(toolNames(context.getBean(AgentConsumer.class).agent())).containsExactly("get_outlook");
				// lazy beans stay lazy; a bean that needs the agent can give it no tools
				assertThat(context.getBeanFactory().containsSingleton("lazyOutlook")).isFalse();
				assertThat(context.getBean("greeter", Greeter.class).greet()).isEqualTo("Hi from assistant");
			});
	}

	@Test
	void userConversationStoreIsUsedByAgents() {
		InMemoryConversationStore store = new InMemoryConversationStore();
		this.contextRunner
			.withBean("myModel", ChatModel.class, () -> ScriptedChatModel.replaying(ScriptedChatModel.text("Hi!")))
			.withBean("myStore", ConversationStore.class, () -> store)
			.run((context) -> {
				assertThat(context).hasSingleBean(ConversationStore.class);
				context.getBean(Agent.class).call("s1", "Hello");
				List<Message> messages = store.load("s1").block(Duration.ofSeconds(5)).messages();
				assertThat(messages).extracting(Message::text).containsExactly("Hello", "Hi!");
			});
	}

	@Test
	void agentsRecordMetricsInMeterRegistry() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				ScriptedChatModel.toolCalls(new ToolCall("call-1", "get_weather", "{\"city\":\"Rome\"}")),
				ScriptedChatModel.text("Sunny."));
		this.contextRunner.withBean("myModel", ChatModel.class, () -> model)
			.withBean("weatherTools", WeatherTools.class)
			.withBean(SimpleMeterRegistry.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(MicrometerAgentMetrics.class);
				context.getBean(Agent.class).call("s1", "Weather in Rome?");
				SimpleMeterRegistry registry = context.getBean(SimpleMeterRegistry.class);
				assertThat(registry.get("agent.tool.calls").tag("tool", "get_weather").timer().count()).isEqualTo(1);
			});
	}

	@Test
	void unknownProviderFails() {
		this.contextRunner.withBean("myModel", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.providers.openai.base-url=http://localhost:1/v1",
					"agent.providers.openai.model=gpt-4o-mini", "agent.agents.assistant.provider=foo")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessage("agent.agents.assistant.provider: unknown model 'foo'; models: []; configured providers: "
						+ "[openai]; ChatModel beans: [myModel]"));
	}

	@Test
	void omittedProviderWithSeveralModelsFails() {
		this.contextRunner.withBean("first", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withBean("second", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.assistant.system-prompt=Hi")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("agent.agents.assistant.model must be set")
				.hasMessageContaining("ChatModel beans: [first, second]"));
	}

	@Test
	void invalidMaxIterationsFails() {
		this.contextRunner.withBean("myModel", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.x.max-iterations=-1")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.agents.x.max-iterations must be at least 1 (was -1)"));
	}

	@Test
	void invalidToolTimeoutFails() {
		this.contextRunner.withBean("myModel", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.x.tool-timeout=0s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.agents.x.tool-timeout must be positive (was PT0S)"));
	}

	@Test
	void turnTimeoutDefaultsToFiveMinutes() {
		this.contextRunner.withBean("myModel", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.x.max-iterations=3")
			.run((context) -> assertThat(context.getBean(AgentProperties.class).getAgents().get("x").getTurnTimeout())
				.isEqualTo(Duration.ofMinutes(5)));
	}

	@Test
	void configuredTurnTimeoutBindsAndEndsATurnWhoseModelNeverAnswers() {
		ChatModel silent = new ChatModel() {

			@Override
			public Mono<ChatResponse> call(ChatRequest request) {
				return Mono.never();
			}

			@Override
			public Flux<ChatChunk> stream(ChatRequest request) {
				return Flux.never();
			}

		};
		this.contextRunner.withBean("myModel", ChatModel.class, () -> silent)
			.withPropertyValues("agent.agents.x.turn-timeout=200ms")
			.run((context) -> {
				assertThat(context.getBean(AgentProperties.class).getAgents().get("x").getTurnTimeout())
					.isEqualTo(Duration.ofMillis(200));
				Agent agent = context.getBean("x", Agent.class);
				StepVerifier.create(agent.invoke(AgentRequest.of("s1", "hi")))
					.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(TurnTimeoutException.class)
						.hasMessageContaining("within its turn timeout of PT0.2S"))
					.verify(Duration.ofSeconds(10));
			});
	}

	@Test
	void invalidTurnTimeoutFails() {
		this.contextRunner.withBean("myModel", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.x.turn-timeout=-1s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.agents.x.turn-timeout must be positive (was PT-1S)"));
	}

	@Test
	void unknownToolFails() {
		this.contextRunner.withBean("myModel", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withBean("weatherTools", WeatherTools.class)
			.withPropertyValues("agent.agents.x.tools=get_weather,nope")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.agents.x.tools: unknown tool 'nope'; known tools: [get_forecast, get_weather]"));
	}

	@Test
	void providerConfiguredAgainstMockServerAnswersThroughAgent() throws Exception {
		try (MockWebServer server = new MockWebServer()) {
			server.start();
			server.enqueue(json("""
					{"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o-mini",
					 "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant",
					   "content": null, "tool_calls": [{"id": "call_1", "type": "function",
					   "function": {"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}}]}}],
					 "usage": {"prompt_tokens": 40, "completion_tokens": 10, "total_tokens": 50}}
					"""));
			server.enqueue(json("""
					{"id": "chatcmpl-2", "object": "chat.completion", "created": 2, "model": "gpt-4o-mini",
					 "choices": [{"index": 0, "finish_reason": "stop",
					   "message": {"role": "assistant", "content": "It is sunny and 21 C in Paris."}}],
					 "usage": {"prompt_tokens": 60, "completion_tokens": 12, "total_tokens": 72}}
					"""));
			this.contextRunner.withBean("weatherTools", WeatherTools.class)
				.withPropertyValues("agent.providers.openai.base-url=" + server.url("/v1"),
						"agent.providers.openai.api-key=sk-test", "agent.providers.openai.model=gpt-4o-mini",
						"agent.agents.assistant.provider=openai",
						"agent.agents.assistant.system-prompt=You are a weather bot.")
				.run((context) -> {
					AgentResult result = context.getBean(Agent.class).call("s1", "Weather in Paris?");
					assertThat(result.output()).isEqualTo("It is sunny and 21 C in Paris.");
					assertThat(result.usage().inputTokens()).isEqualTo(100);
					assertThat(result.toolExecutions()).singleElement()
						.satisfies((execution) -> assertThat(execution.result()).isEqualTo("Sunny, 21 C in Paris"));
					RecordedRequest first = server.takeRequest(5, TimeUnit.SECONDS);
					assertThat(first.getUrl().encodedPath()).isEqualTo("/v1/chat/completions");
					assertThat(first.getHeaders().get("Authorization")).isEqualTo("Bearer sk-test");
					assertThat(first.getBody().utf8()).contains("You are a weather bot.").contains("get_weather");
					RecordedRequest second = server.takeRequest(5, TimeUnit.SECONDS);
					assertThat(second.getBody().utf8()).contains("Sunny, 21 C in Paris");
				});
		}
	}

	private static MockResponse json(String body) {
		return new MockResponse.Builder().code(200).addHeader("Content-Type", "application/json").body(body).build();
	}

	private static List<String> toolNames(Agent agent) {
		return agent.tools().stream().map(ToolSpec::name).toList();
	}

	record AgentConsumer(Agent agent) {
	}

	@Configuration(proxyBeanMethods = false)
	static class UserAgentConfiguration {

		@Bean
		Agent custom(ChatModel model) {
			return Agent.builder().name("custom").model(model).systemPrompt("I am custom.").build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ScopedProxyConfiguration {

		@Bean
		static CustomScopeConfigurer threadScope() {
			CustomScopeConfigurer configurer = new CustomScopeConfigurer();
			configurer.addScope("thread", new SimpleThreadScope());
			return configurer;
		}

		@Bean
		@Scope(scopeName = "thread", proxyMode = ScopedProxyMode.INTERFACES)
		ChatModel scripted() {
			return ScriptedChatModel.replaying();
		}

		@Bean
		@Scope(scopeName = "thread", proxyMode = ScopedProxyMode.INTERFACES)
		ToolCallback echo() {
			return new EchoTool();
		}

	}

	record EchoTool() implements ToolCallback {

		@Override
		public ToolSpec spec() {
			return new ToolSpec("echo", "Echoes its arguments", AgentJson.mapper().createObjectNode());
		}

		@Override
		public String call(String arguments, ToolContext context) {
			return arguments;
		}

	}

	// the agent is created first, while the interface-typed beans after it do not exist yet
	@Configuration(proxyBeanMethods = false)
	static class EarlyAgentConfiguration {

		@Bean
		AgentConsumer agentConsumer(Agent agent) {
			return new AgentConsumer(agent);
		}

		@Bean
		Outlook outlook() {
			return new OutlookTools();
		}

		@Bean
		@Lazy
		Outlook lazyOutlook() {
			return new OutlookTools();
		}

		@Bean
		Greeter greeter(Agent agent) {
			return () -> "Hi from " + agent.name();
		}

	}

	interface Outlook {

		String outlook(String city);

	}

	static class OutlookTools implements Outlook {

		@Override
		@Tool(name = "get_outlook", description = "The week's outlook for a city", secrets = {})
		public String outlook(String city) {
			return "Mild in " + city;
		}

	}

	interface Greeter {

		String greet();

	}

	@Configuration(proxyBeanMethods = false)
	static class QualifiedConsumerConfiguration {

		@Bean
		AgentConsumer agentConsumer(@Qualifier("reviewer") Agent agent) {
			return new AgentConsumer(agent);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PlainConsumerConfiguration {

		@Bean
		AgentConsumer agentConsumer(Agent agent) {
			return new AgentConsumer(agent);
		}

	}

}
