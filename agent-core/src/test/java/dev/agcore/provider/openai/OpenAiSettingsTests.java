package dev.agcore.provider.openai;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import dev.agcore.model.ChatOptions;
import dev.agcore.model.ModelCapability;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/**
 * Tests for {@link OpenAiSettings}.
 */
class OpenAiSettingsTests {

	@Test
	void defaults() {
		OpenAiSettings settings = OpenAiSettings.of("http://localhost:11434/v1", null, "llama3");
		assertThat(settings.providerName()).isEqualTo("openai");
		assertThat(settings.responseTimeout()).isEqualTo(Duration.ofSeconds(60));
		assertThat(settings.hasApiKey()).isFalse();
		assertThat(settings.temperature()).isNull();
		assertThat(settings.maxTokens()).isNull();
	}

	@Test
	void withMethodsCopy() {
		OpenAiSettings settings = OpenAiSettings.of("http://localhost/v1", "key", "a")
			.withProviderName("ollama")
			.withModel("b")
			.withTemperature(0.1)
			.withMaxTokens(10)
			.withResponseTimeout(Duration.ofSeconds(5));
		assertThat(settings).isEqualTo(new OpenAiSettings("ollama", "http://localhost/v1", "key", "b", 0.1, 10,
				Duration.ofSeconds(5)));
	}

	@Test
	void validates() {
		assertThatNullPointerException().isThrownBy(() -> OpenAiSettings.of(null, null, "m"))
			.withMessageContaining("baseUrl");
		assertThatIllegalArgumentException().isThrownBy(() -> OpenAiSettings.of("http://x", null, " "))
			.withMessageContaining("model");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> OpenAiSettings.of("http://x", null, "m").withResponseTimeout(Duration.ZERO))
			.withMessageContaining("responseTimeout");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> OpenAiSettings.of("http://x", null, "m").withMaxTokens(0))
			.withMessageContaining("maxTokens");
	}

	@Test
	void builderRequiresSettings() {
		assertThatIllegalStateException().isThrownBy(() -> OpenAiChatModel.builder().build())
			.withMessageContaining("settings");
	}

	@Test
	void newComponentsHaveDefaults() {
		OpenAiSettings settings = OpenAiSettings.of("http://localhost/v1", "key", "m");
		assertThat(settings.defaultOptions()).isEqualTo(ChatOptions.DEFAULTS);
		assertThat(settings.headers()).isEmpty();
		assertThat(settings.extraBody()).isEmpty();
		assertThat(settings.authStyle()).isEqualTo(OpenAiSettings.AuthStyle.BEARER);
		assertThat(settings.queryParameters()).isEmpty();
		assertThat(settings.chatPath()).isEqualTo("/chat/completions");
		assertThat(settings.quirks()).isEqualTo(OpenAiQuirks.COMPATIBLE);
		assertThat(settings.capabilities()).containsExactlyInAnyOrder(ModelCapability.TOOLS, ModelCapability.STREAMING,
				ModelCapability.STRUCTURED_OUTPUT, ModelCapability.REASONING, ModelCapability.IMAGES,
				ModelCapability.PDF);
	}

	@Test
	void effectiveDefaultsPutDefaultOptionsOverTemperatureAndMaxTokens() {
		OpenAiSettings settings = OpenAiSettings.of("http://localhost/v1", "key", "m")
			.withTemperature(0.9)
			.withMaxTokens(10)
			.withDefaultOptions(ChatOptions.builder().temperature(0.1).seed(3L).build());
		ChatOptions defaults = settings.effectiveDefaults();
		assertThat(defaults.temperature()).isEqualTo(0.1);
		assertThat(defaults.maxTokens()).isEqualTo(10);
		assertThat(defaults.seed()).isEqualTo(3L);
	}

	@Test
	void withersCopyTheNewComponents() {
		OpenAiSettings settings = OpenAiSettings.of("http://localhost/v1", "key", "m")
			.withHeaders(Map.of("X-A", "1"))
			.withExtraBody(Map.of("top_k", 5))
			.withAuthStyle(OpenAiSettings.AuthStyle.API_KEY)
			.withQueryParameters(Map.of("api-version", "v"))
			.withChatPath("/deployments/d/chat/completions")
			.withQuirks(OpenAiQuirks.MISTRAL)
			.withCapabilities(Set.of(ModelCapability.TOOLS))
			.withModel("n");
		assertThat(settings.headers()).containsExactly(Map.entry("X-A", "1"));
		assertThat(settings.extraBody()).containsExactly(Map.entry("top_k", 5));
		assertThat(settings.authStyle()).isEqualTo(OpenAiSettings.AuthStyle.API_KEY);
		assertThat(settings.queryParameters()).containsExactly(Map.entry("api-version", "v"));
		assertThat(settings.chatPath()).isEqualTo("/deployments/d/chat/completions");
		assertThat(settings.quirks()).isEqualTo(OpenAiQuirks.MISTRAL);
		assertThat(settings.capabilities()).containsExactly(ModelCapability.TOOLS);
		assertThat(settings.model()).isEqualTo("n");
	}

	@Test
	void toStringMasksTheKey() {
		assertThat(OpenAiSettings.of("http://localhost/v1", "sk-secret", "m").toString()).doesNotContain("sk-secret")
			.contains("apiKey=******");
	}

}
