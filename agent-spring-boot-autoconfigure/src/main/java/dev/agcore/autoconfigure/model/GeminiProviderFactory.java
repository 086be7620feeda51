package dev.agcore.autoconfigure.model;

import java.util.Set;

import dev.agcore.model.ChatModel;
import dev.agcore.provider.gemini.GeminiChatModel;
import dev.agcore.provider.gemini.GeminiSettings;

/**
 * Builds {@link GeminiChatModel}s for {@code type: gemini} (or {@code google}), the
 * Google Gemini API.
 */
final class GeminiProviderFactory implements ProviderFactory {

	@Override
	public Set<String> types() {
		return Set.of("gemini", "google");
	}

	@Override
	public ChatModel create(ProviderSource source) {
		String baseUrl = source.baseUrl(GeminiSettings.DEFAULT_BASE_URL, GeminiSettings.DEFAULT_BASE_URL);
		String model = source.requireModel("gemini-2.5-flash");
		GeminiSettings settings = new GeminiSettings(source.name(), baseUrl, source.requireApiKey("GEMINI_API_KEY"),
				model, source.defaultOptions(), source.properties().getHeaders(), source.extraBody(),
				source.responseTimeout());
		return GeminiChatModel.builder()
			.settings(settings)
			.webClientBuilder(source.webClientBuilder())
			.rateLimitListener(source.rateLimitListener())
			.build();
	}

}
