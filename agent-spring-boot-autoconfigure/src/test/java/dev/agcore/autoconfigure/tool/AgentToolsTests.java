package dev.agcore.autoconfigure.tool;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agcore.Tool;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.WeatherTools;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.SessionMemory;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.ToolExecution;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolSpec;
import dev.agcore.tool.permission.PermissionDecision;
import dev.agcore.tool.permission.ToolPermissionPolicy;
import dev.agcore.tool.secret.SecretResolver;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the tools side of configured agents ({@link AgentTools}): scoping,
 * permissions, secrets, stores and the result bound, through real agent loops.
 */
class AgentToolsTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				AgentAutoConfiguration.class))
		.withBean("noteTools", NoteTools.class)
		.withBean("weatherTools", WeatherTools.class);

	@Test
	void outOfScopeToolIsNotSentToTheModelAndRefusedWhenCalled() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				ScriptedChatModel.toolCalls(new ToolCall("call-1", "notes_purge", "{}")),
				ScriptedChatModel.text("I cannot."));
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withPropertyValues("agent.agents.assistant.tools=get_weather,notes_read")
			.run((context) -> {
				AgentResult result = context.getBean(Agent.class).call("s1", "Purge my notes");
				assertThat(model.requests().get(0).tools()).extracting(ToolSpec::name)
					.containsExactly("get_weather", "notes_read");
				assertThat(result.toolExecutions()).singleElement().satisfies((execution) -> {
					assertThat(execution.error()).isTrue();
					assertThat(execution.result()).startsWith(
							"Error: tool 'notes_purge' is not available to this agent. Available tools: get_weather, notes_read");
				});
				assertThat(context.getBean(NoteTools.class).calls()).isEmpty();
			});
	}

	@Test
	void toolsAreSentInTheOrderTheScopeNamesThem() {
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.assistant.tools=get_weather,group:notes,billing_*")
			.run((context) -> assertThat(toolNames(context.getBean(Agent.class))).containsExactly("get_weather",
					"notes_purge", "notes_read", "notes_write", "billing_refund"));
	}

	@Test
	void globSelectsByName() {
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.assistant.tools=notes_*")
			.run((context) -> assertThat(toolNames(context.getBean(Agent.class)))
				.containsExactly("notes_purge", "notes_read", "notes_write"));
	}

	@Test
	void groupSelectsByCategory() {
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.assistant.tools=group:admin")
			.run((context) -> assertThat(toolNames(context.getBean(Agent.class))).containsExactly("admin_reset"));
	}

	@Test
	void omittedScopeGivesAllTools() {
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.assistant.system-prompt=Hi")
			.run((context) -> assertThat(toolNames(context.getBean(Agent.class))).containsExactlyInAnyOrder(
					"notes_read", "notes_write", "notes_purge", "admin_reset", "billing_refund", "get_weather",
					"get_forecast"));
	}

	@Test
	void unknownToolInScopeFails() {
		assertStartupFails("agent.agents.x.tools=get_weather,notes_raed",
				"agent.agents.x.tools: unknown tool 'notes_raed'; known tools: [admin_reset, billing_refund, "
						+ "get_forecast, get_weather, notes_purge, notes_read, notes_write]");
	}

	@Test
	void globMatchingNoToolFails() {
		assertStartupFails("agent.agents.x.tools=todo_*",
				"agent.agents.x.tools: 'todo_*' matches no tool; known tools: [admin_reset, billing_refund, "
						+ "get_forecast, get_weather, notes_purge, notes_read, notes_write]");
	}

	@Test
	void unknownGroupFails() {
		assertStartupFails("agent.agents.x.tools=group:note",
				"agent.agents.x.tools: no tool is in group 'note'; known groups: [admin, notes]");
	}

	@Test
	void emptyScopeEntryFails() {
		assertStartupFails("agent.agents.x.tools=get_weather,group:", "agent.agents.x.tools has an empty entry");
	}

	@Test
	void deniedPermissionNeverRunsIsAnsweredAsDeniedAndCounted() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				ScriptedChatModel.toolCalls(new ToolCall("call-1", "notes_purge", "{}"),
						new ToolCall("call-2", "notes_read", "{\"id\": \"7\"}")),
				ScriptedChatModel.text("Done."));
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withBean(SimpleMeterRegistry.class)
			.withPropertyValues("agent.agents.assistant.permissions.deny=destructive")
			.run((context) -> {
				AgentResult result = context.getBean(Agent.class).call("s1", "Purge, then read note 7");
				assertThat(result.toolExecutions()).extracting(ToolExecution::result)
					.containsExactly("Error: tool 'notes_purge' was denied: agent 'assistant' may not use tools "
							+ "with permission 'destructive'", "Note 7");
				assertThat(context.getBean(NoteTools.class).calls()).containsExactly("notes_read");
				SimpleMeterRegistry meters = context.getBean(SimpleMeterRegistry.class);
				assertThat(meters.get("agent.tool.calls")
					.tags("agent", "assistant", "tool", "notes_purge", "outcome", "denied")
					.timer()
					.count()).isEqualTo(1);
			});
	}

	@Test
	void allowRulesByLevelAndToolWithDeniedToolGlob() {
		ScriptedChatModel model = ScriptedChatModel.replaying(ScriptedChatModel.toolCalls(
				new ToolCall("call-1", "notes_read", "{\"id\": \"1\"}"),
				new ToolCall("call-2", "notes_write", "{\"id\": \"1\", \"text\": \"x\"}"),
				new ToolCall("call-3", "admin_reset", "{}"),
				new ToolCall("call-4", "billing_refund", "{\"orderId\": \"A-1\"}")), ScriptedChatModel.text("Done."));
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withPropertyValues("agent.agents.assistant.permissions.allow=read-only,write",
					"agent.agents.assistant.permissions.allow-tools=notes_write",
					"agent.agents.assistant.permissions.deny-tools=admin_*")
			.run((context) -> {
				AgentResult result = context.getBean(Agent.class).call("s1", "Do everything");
				assertThat(result.toolExecutions()).extracting(ToolExecution::result)
					.containsExactly("Note 1", "Saved 1",
							"Error: tool 'admin_reset' was denied: agent 'assistant' may not use this tool",
							"Error: tool 'billing_refund' was denied: agent 'assistant' is not allowed tools with "
									+ "permission 'billing:refund'");
				// the calls of one response run in parallel, so their order is not fixed
				assertThat(context.getBean(NoteTools.class).calls()).containsExactlyInAnyOrder("notes_read", "notes_write");
			});
	}

	@Test
	void customPermissionCanBeAllowed() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				ScriptedChatModel.toolCalls(new ToolCall("call-1", "billing_refund", "{\"orderId\": \"A-1\"}"),
						new ToolCall("call-2", "notes_read", "{\"id\": \"1\"}")),
				ScriptedChatModel.text("Done."));
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withPropertyValues("agent.agents.assistant.permissions.allow=billing:refund")
			.run((context) -> {
				context.getBean(Agent.class).call("s1", "Refund A-1");
				assertThat(context.getBean(NoteTools.class).calls()).containsExactly("billing_refund");
			});
	}

	@Test
	void permissionPolicyBeanAppliesToEveryAgentTogetherWithTheirRules() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				ScriptedChatModel.toolCalls(new ToolCall("call-1", "get_weather", "{\"city\": \"Oslo\"}"),
						new ToolCall("call-2", "notes_purge", "{}"), new ToolCall("call-3", "notes_read",
								"{\"id\": \"1\"}")),
				ScriptedChatModel.text("Done."));
		ToolPermissionPolicy noWeather = (agent, tool, call) -> tool.spec().name().startsWith("get_")
				? PermissionDecision.deny("weather is off today") : PermissionDecision.allow();
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withBean("noWeather", ToolPermissionPolicy.class, () -> noWeather)
			.withPropertyValues("agent.agents.assistant.permissions.deny=destructive",
					"agent.agents.helper.system-prompt=Help.")
			.run((context) -> {
				AgentResult result = context.getBean("assistant", Agent.class).call("s1", "Go");
				assertThat(result.toolExecutions()).extracting(ToolExecution::result)
					.containsExactly("Error: tool 'get_weather' was denied: weather is off today",
							"Error: tool 'notes_purge' was denied: agent 'assistant' may not use tools with "
									+ "permission 'destructive'",
							"Note 1");
				assertThat(context.getBean(WeatherTools.class).calls()).isZero();
				AgentToolSettings helper = context.getBean(AgentTools.class)
					.settings(context.getBean("helper", Agent.class))
					.orElseThrow();
				assertThat(helper.permissionPolicy()).isEqualTo("all of [deny destructive tools, " + noWeather + "]");
			});
	}

	@Test
	void withoutRulesOrPolicyBeansOnlyDestructiveToolsAreDenied() {
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.assistant.system-prompt=Hi")
			.run((context) -> assertThat(context.getBean(AgentTools.class)
				.settings(context.getBean(Agent.class))
				.orElseThrow()
				.permissionPolicy()).isEqualTo("deny destructive tools"));
	}

	@Test
	void invalidPermissionFails() {
		assertStartupFails("agent.agents.x.permissions.deny=superuser",
				"agent.agents.x.permissions.deny: Invalid tool permission 'superuser': use read-only, write, "
						+ "destructive or a custom 'namespace:name' in lower case");
	}

	@Test
	void unknownToolInPermissionsFailsButGlobMayMatchNothing() {
		assertStartupFails("agent.agents.x.permissions.deny-tools=notes_prge",
				"agent.agents.x.permissions.deny-tools: unknown tool 'notes_prge'; known tools: [admin_reset, "
						+ "billing_refund, get_forecast, get_weather, notes_purge, notes_read, notes_write]");
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.x.permissions.deny-tools=danger_*")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void secretIsResolvedFromTheEnvironmentForAnEligibleParameterAndNeverStored() {
		ScriptedChatModel model = ScriptedChatModel.replaying(ScriptedChatModel.toolCalls(
				new ToolCall("call-1", "call_api", "{\"url\": \"/invoices\", \"apiKey\": \"<secret_ref:myapp.secrets.billing>\"}")),
				ScriptedChatModel.text("Done."));
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withBean("apiTools", ApiTools.class)
			.withPropertyValues("agent.secrets.allowed=myapp.secrets.*", "myapp.secrets.billing=s3cr3t-value",
					"agent.agents.assistant.tools=call_api")
			.run((context) -> {
				Agent agent = context.getBean(Agent.class);
				AgentResult result = agent.call("s1", "List invoices");
				assertThat(context.getBean(ApiTools.class).keys()).containsExactly("s3cr3t-value");
				// the tool echoed the key: the model sees the placeholder instead
				assertThat(result.toolExecutions()).singleElement()
					.satisfies((execution) -> assertThat(execution.result())
						.isEqualTo("200 OK for /invoices with <secret_ref:myapp.secrets.billing>"));
				List<Message> history = agent.history("s1").block(Duration.ofSeconds(5));
				assertThat(history).isNotEmpty();
				assertThat(history.toString()).doesNotContain("s3cr3t-value")
					.contains("<secret_ref:myapp.secrets.billing>");
			});
	}

	@Test
	void secretNotOnTheAllowListIsRefused() {
		ScriptedChatModel model = ScriptedChatModel.replaying(ScriptedChatModel.toolCalls(
				new ToolCall("call-1", "call_api", "{\"url\": \"/x\", \"apiKey\": \"<secret_ref:spring.datasource.password>\"}")),
				ScriptedChatModel.text("Done."));
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withBean("apiTools", ApiTools.class)
			.withPropertyValues("agent.secrets.allowed=myapp.secrets.*", "spring.datasource.password=hunter2",
					"agent.agents.assistant.tools=call_api")
			.run((context) -> {
				AgentResult result = context.getBean(Agent.class).call("s1", "Go");
				assertThat(result.toolExecutions()).singleElement()
					.satisfies((execution) -> assertThat(execution.result()).isEqualTo("Error: tool 'call_api' was "
							+ "not run: unknown secret 'spring.datasource.password' in parameter 'apiKey'"));
				assertThat(context.getBean(ApiTools.class).keys()).isEmpty();
			});
	}

	@Test
	void noSecretIsAllowedByDefault() {
		this.contextRunner.withPropertyValues("myapp.secrets.billing=s3cr3t-value").run((context) -> {
			SecretResolver resolver = context.getBean(SecretResolver.class);
			assertThat(resolver).isInstanceOf(EnvironmentSecretResolver.class);
			assertThat(resolver.resolve("myapp.secrets.billing")).isNull();
		});
	}

	@Test
	void secretResolverAllowsNamesAndGlobs() {
		this.contextRunner
			.withPropertyValues("agent.secrets.allowed=WEATHER_API_KEY,myapp.secrets.*", "WEATHER_API_KEY=w-key",
					"myapp.secrets.billing=b-key", "myapp.secrets.empty=", "other=o-key")
			.run((context) -> {
				SecretResolver resolver = context.getBean(SecretResolver.class);
				assertThat(resolver.resolve("WEATHER_API_KEY")).isEqualTo("w-key");
				assertThat(resolver.resolve("myapp.secrets.billing")).isEqualTo("b-key");
				assertThat(resolver.resolve("myapp.secrets.empty")).isNull();
				assertThat(resolver.resolve("other")).isNull();
				assertThat(resolver).hasToString("EnvironmentSecretResolver [WEATHER_API_KEY, myapp.secrets.*]");
			});
	}

	@Test
	void userSecretResolverIsGivenToTheAgents() {
		ScriptedChatModel model = ScriptedChatModel.replaying(ScriptedChatModel.toolCalls(
				new ToolCall("call-1", "call_api", "{\"url\": \"/x\", \"apiKey\": \"<secret_ref:VAULT_KEY>\"}")),
				ScriptedChatModel.text("Done."));
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withBean("apiTools", ApiTools.class)
			.withBean(SecretResolver.class, () -> SecretResolver.of(Map.of("VAULT_KEY", "from-vault")))
			.withPropertyValues("agent.agents.assistant.tools=call_api")
			.run((context) -> {
				assertThat(context).getBean(SecretResolver.class).isNotInstanceOf(EnvironmentSecretResolver.class);
				context.getBean(Agent.class).call("s1", "Go");
				assertThat(context.getBean(ApiTools.class).keys()).containsExactly("from-vault");
			});
	}

	@Test
	void agentsShareTheKeyValueStoreBean() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				ScriptedChatModel.toolCalls(new ToolCall("call-1", "remember", "{\"value\": \"blue\"}")),
				ScriptedChatModel.text("Noted."));
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withBean("memoryTools", MemoryTools.class)
			.withPropertyValues("agent.agents.assistant.tools=remember")
			.run((context) -> {
				assertThat(context).getBean(KeyValueStore.class).isInstanceOf(InMemoryKeyValueStore.class);
				context.getBean(Agent.class).call("s1", "My favourite colour is blue");
				KeyValueStore store = context.getBean(KeyValueStore.class);
				JsonNode colour = store.get(SessionMemory.NAMESPACE_PREFIX + "s1", "colour").block(Duration.ofSeconds(5));
				assertThat(colour).isNotNull();
				assertThat(colour.asString()).isEqualTo("blue");
			});
	}

	@Test
	void userKeyValueStoreWinsAndIsTheToolsStore() {
		KeyValueStore store = new InMemoryKeyValueStore();
		ScriptedChatModel model = ScriptedChatModel.replaying(
				ScriptedChatModel.toolCalls(new ToolCall("call-1", "remember", "{\"value\": \"green\"}")),
				ScriptedChatModel.text("Noted."));
		this.contextRunner.withBean("myStore", KeyValueStore.class, () -> store)
			.withBean("scripted", ChatModel.class, () -> model)
			.withBean("memoryTools", MemoryTools.class)
			.withPropertyValues("agent.agents.assistant.tools=remember")
			.run((context) -> {
				assertThat(context).getBean(KeyValueStore.class).isSameAs(store);
				context.getBean(Agent.class).call("s1", "My favourite colour is green");
				JsonNode colour = store.get(SessionMemory.NAMESPACE_PREFIX + "s1", "colour").block(Duration.ofSeconds(5));
				assertThat(colour).isNotNull();
				assertThat(colour.asString()).isEqualTo("green");
			});
	}

	@Test
	void toolResultsAreCutAtTheConfiguredLengthWhichAnAgentCanOverride() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				ScriptedChatModel.toolCalls(new ToolCall("call-1", "get_weather", "{\"city\": \"Paris\"}")),
				ScriptedChatModel.text("Done."));
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withPropertyValues("agent.tools.max-result-length=1000", "agent.agents.assistant.max-tool-result-length=5",
					"agent.agents.helper.system-prompt=Help.")
			.run((context) -> {
				AgentResult result = context.getBean("assistant", Agent.class).call("s1", "Weather?");
				assertThat(result.toolExecutions()).singleElement()
					.satisfies((execution) -> assertThat(execution.result()).isEqualTo(
							"Sunny\n[truncated: the result was 20 characters long; only the first 5 are shown]"));
				AgentTools tools = context.getBean(AgentTools.class);
				assertThat(tools.settings(context.getBean("helper", Agent.class)).orElseThrow().maxToolResultLength())
					.isEqualTo(1000);
			});
	}

	@Test
	void invalidMaxResultLengthFails() {
		assertStartupFails("agent.tools.max-result-length=0",
				"agent.tools.max-result-length must be at least 1 (was 0)");
		assertStartupFails("agent.agents.x.max-tool-result-length=-1",
				"agent.agents.x.max-tool-result-length must be at least 1 (was -1)");
	}

	private void assertStartupFails(String... propertiesThenMessage) {
		String message = propertiesThenMessage[propertiesThenMessage.length - 1];
		String[] properties = Arrays.copyOf(propertiesThenMessage, propertiesThenMessage.length - 1);
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues(properties)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessage(message));
	}

	private static List<String> toolNames(Agent agent) {
		return agent.tools().stream().map(ToolSpec::name).toList();
	}

	static class ApiTools {

		private final List<String> keys = new CopyOnWriteArrayList<>();

		@Tool(name = "call_api", description = "Call the billing API", secrets = { "apiKey" })
		String callApi(String url, String apiKey) {
			this.keys.add(apiKey);
			return "200 OK for " + url + " with " + apiKey;
		}

		List<String> keys() {
			return this.keys;
		}

	}

	static class MemoryTools {

		@Tool(name = "remember", description = "Remember the user's favourite colour", secrets = {})
		String remember(String value, SessionMemory memory) {
			memory.put("colour", value);
			return "Remembered";
		}

	}

}
