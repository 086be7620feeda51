package dev.agcore.autoconfigure.model;

import java.util.Set;

import dev.agcore.model.ChatModel;
import dev.agcore.provider.anthropic.AnthropicChatModel;
import dev.agcore.provider.anthropic.AnthropicSettings;

/**
 * Builds {@link AnthropicChatModel}s for {@code type: anthropic}, the Anthropic Messages
 * API.
 */
final class AnthropicProviderFactory implements ProviderFactory {

	@Override
	public Set<String> types() {
		return Set.of("anthropic");
	}

	@Override
	public ChatModel create(ProviderSource source) {
		String baseUrl = source.baseUrl(AnthropicSettings.DEFAULT_BASE_URL, AnthropicSettings.DEFAULT_BASE_URL);
		AnthropicSettings settings = new AnthropicSettings(source.name(), baseUrl,
				source.requireApiKey("ANTHROPIC_API_KEY"), source.requireModel("claude-sonnet-4-5"),
				source.properties().getApiVersion(), source.defaultOptions(), source.properties().getHeaders(),
				source.extraBody(), source.properties().isPromptCaching(), source.responseTimeout());
		return AnthropicChatModel.builder()
			.settings(settings)
			.webClientBuilder(source.webClientBuilder())
			.rateLimitListener(source.rateLimitListener())
			.build();
	}

}
