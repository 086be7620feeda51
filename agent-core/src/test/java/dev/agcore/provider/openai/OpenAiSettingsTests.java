package dev.agcore.provider.openai;

import java.time.Duration;

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

}
