package dev.agcore.autoconfigure.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.model.ChatModel;
import dev.agcore.provider.ollama.OllamaChatModel;
import dev.agcore.provider.ollama.OllamaChatSettings;
import dev.agcore.provider.ollama.OllamaEmbeddingModel;
import org.jspecify.annotations.Nullable;

/**
 * Builds {@link OllamaChatModel}s for {@code type: ollama}, Ollama's native chat API.
 * Ollama's OpenAI-compatible API ({@code base-url: http://localhost:11434/v1}) stays
 * {@code type: openai}.
 */
final class OllamaProviderFactory implements ProviderFactory {

	private static final String EXAMPLE_URL = OllamaEmbeddingModel.DEFAULT_BASE_URL;

	private static final Pattern INTEGER = Pattern.compile("-?\\d{1,18}");

	private static final Pattern DECIMAL = Pattern.compile("-?\\d+\\.\\d+");

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
				typed(properties.getExtraBody()), source.responseTimeout());
		return OllamaChatModel.builder()
			.settings(settings)
			.webClientBuilder(source.webClientBuilder())
			.rateLimitListener(source.rateLimitListener())
			.build();
	}

	// values bound from properties and environment variables are text, and Ollama rejects
	// "8192" for num_ctx: numbers and booleans are sent as such (YAML's are already typed)
	static Map<String, Object> typed(Map<String, Object> extraBody) {
		Map<String, Object> typed = new LinkedHashMap<>();
		extraBody.forEach((key, value) -> typed.put(key, typedValue(value)));
		return typed;
	}

	@SuppressWarnings("unchecked")
	private static @Nullable Object typedValue(@Nullable Object value) {
		if (value instanceof Map<?, ?> map) {
			return typed((Map<String, Object>) map);
		}
		if (value instanceof List<?> list) {
			return list.stream().map(OllamaProviderFactory::typedValue).toList();
		}
		if (value instanceof String text) {
			if (text.equals("true") || text.equals("false")) {
				return Boolean.valueOf(text);
			}
			if (INTEGER.matcher(text).matches()) {
				return Long.valueOf(text);
			}
			if (DECIMAL.matcher(text).matches()) {
				return Double.valueOf(text);
			}
		}
		return value;
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
