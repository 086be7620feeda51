package dev.agcore.autoconfigure.model;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.model.ChatModel;
import dev.agcore.provider.ollama.OllamaChatModel;
import dev.agcore.provider.ollama.OllamaChatSettings;
import dev.agcore.provider.ollama.OllamaEmbeddingModel;

/**
 * Builds {@link OllamaChatModel}s for {@code type: ollama}, Ollama's native chat API.
 * Ollama's OpenAI-compatible API ({@code base-url: http://localhost:11434/v1}) stays
 * {@code type: openai}.
 */
final class OllamaProviderFactory implements ProviderFactory {

	private static final String EXAMPLE_URL = OllamaEmbeddingModel.DEFAULT_BASE_URL;

	@Override
	public Set<String> types() {
		return Set.of("ollama");
	}

	@Override
	public ChatModel create(ProviderSource source) {
		String baseUrl = source.baseUrl(OllamaEmbeddingModel.DEFAULT_BASE_URL, EXAMPLE_URL);
		checkNativeRoot(source, baseUrl);
		String model = source.requireModel("llama3.2");
		AgentProperties.Provider properties = source.properties();
		OllamaChatSettings settings = new OllamaChatSettings(source.name(), baseUrl, model, source.apiKey(),
				source.defaultOptions(), properties.getKeepAlive(), properties.getHeaders(),
				source.extraBody(), source.responseTimeout());
		return OllamaChatModel.builder()
			.settings(settings)
			.webClientBuilder(source.webClientBuilder())
			.rateLimitListener(source.rateLimitListener())
			.build();
	}

	// the native client adds /api/chat itself: a URL meant for the OpenAI-compatible API
	// (or with /api already) would reach /v1/api/chat, a 404 that names no property
	private static void checkNativeRoot(ProviderSource source, String baseUrl) {
		String path = baseUrl.toLowerCase(Locale.ROOT);
		for (String suffix : new String[] { "/v1", "/api" }) {
			if (path.endsWith(suffix)) {
				String root = baseUrl.substring(0, baseUrl.length() - suffix.length());
				throw new AgentConfigurationException(
						source.prefix() + ".base-url ends with " + suffix
								+ ", but type 'ollama' uses Ollama's native API at the server's root (was '" + baseUrl
								+ "')",
						"Set " + source.prefix() + ".base-url to " + root + ", or keep " + baseUrl
								+ " with type 'openai' to use Ollama's OpenAI-compatible API.");
			}
		}
	}

}
