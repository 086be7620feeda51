package dev.agcore.autoconfigure.model;

import java.time.Duration;
import java.util.Map;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatModelRegistry;
import dev.agcore.provider.anthropic.AnthropicChatModel;
import dev.agcore.provider.anthropic.AnthropicSettings;
import dev.agcore.resilience.RetryingChatModel;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AnthropicProviderFactory} through {@link ChatModelAutoConfiguration}.
 */
class AnthropicProviderFactoryTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class));

	@Test
	void providerOfTypeAnthropicBecomesRetryingAnthropicModel() {
		this.contextRunner
			.withPropertyValues("agent.providers.claude.type=anthropic", "agent.providers.claude.api-key=sk-ant-test",
					"agent.providers.claude.model=claude-sonnet-4-5", "agent.providers.claude.api-version=2024-01-01",
					"agent.providers.claude.prompt-caching=true",
					"agent.providers.claude.headers.anthropic-beta=output-128k-2025-02-19",
					"agent.providers.claude.extra-body.metadata.user_id=u-1",
					"agent.providers.claude.options.thinking-budget=2048",
					"agent.providers.claude.options.max-tokens=8192", "agent.providers.claude.response-timeout=30s")
			.run((context) -> {
				ChatModel model = context.getBean(ChatModelRegistry.class).get("claude");
				assertThat(model).isInstanceOf(RetryingChatModel.class);
				ChatModel delegate = ((RetryingChatModel) model).delegate();
				assertThat(delegate).isInstanceOf(AnthropicChatModel.class);
				assertThat(delegate.providerName()).isEqualTo("claude");
				AnthropicSettings settings = ((AnthropicChatModel) delegate).settings();
				assertThat(settings.baseUrl()).isEqualTo("https://api.anthropic.com");
				assertThat(settings.apiKey()).isEqualTo("sk-ant-test");
				assertThat(settings.model()).isEqualTo("claude-sonnet-4-5");
				assertThat(settings.apiVersion()).isEqualTo("2024-01-01");
				assertThat(settings.promptCaching()).isTrue();
				assertThat(settings.headers()).containsEntry("anthropic-beta", "output-128k-2025-02-19");
				assertThat(settings.extraBody()).containsEntry("metadata", Map.of("user_id", "u-1"));
				assertThat(settings.defaultOptions().thinkingBudget()).isEqualTo(2048);
				assertThat(settings.defaultOptions().maxTokens()).isEqualTo(8192);
				assertThat(settings.responseTimeout()).isEqualTo(Duration.ofSeconds(30));
			});
	}

	@Test
	void providerNamedAnthropicNeedsNoTypeAndUsesTheDocumentedDefaults() {
		this.contextRunner
			.withPropertyValues("agent.providers.anthropic.api-key=sk-ant-test",
					"agent.providers.anthropic.model=claude-haiku-4-5")
			.run((context) -> {
				ChatModel model = ((RetryingChatModel) context.getBean(ChatModelRegistry.class).get("anthropic"))
					.delegate();
				AnthropicSettings settings = ((AnthropicChatModel) model).settings();
				assertThat(settings.apiVersion()).isEqualTo("2023-06-01");
				assertThat(settings.promptCaching()).isFalse();
				assertThat(settings.headers()).isEmpty();
			});
	}

	@Test
	void missingApiKeyFailsNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("agent.providers.claude.type=anthropic",
					"agent.providers.claude.model=claude-sonnet-4-5")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("agent.providers.claude.api-key must be set")
				.satisfies((ex) -> assertThat(((AgentConfigurationException) ex).getAction())
					.contains("${ANTHROPIC_API_KEY}")));
	}

	@Test
	void missingModelFailsNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("agent.providers.claude.type=anthropic", "agent.providers.claude.api-key=sk-ant-test")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.providers.claude.model must be set"));
	}


	@Test
	void unresolvedPlaceholderAsApiKeyFailsNamingTheVariable() {
		this.contextRunner
			.withPropertyValues("agent.providers.claude.type=anthropic",
					"agent.providers.claude.api-key=${AGCORE_TEST_UNSET_KEY}", "agent.providers.claude.model=m")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessage("agent.providers.claude.api-key is the unresolved placeholder '${AGCORE_TEST_UNSET_KEY}'")
				.satisfies((ex) -> assertThat(((AgentConfigurationException) ex).getAction())
					.contains("AGCORE_TEST_UNSET_KEY")));
	}

}
