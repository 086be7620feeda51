package dev.agcore.autoconfigure.embedding;

import java.util.Locale;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.embedding.EmbeddingProperties.Provider;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;

/**
 * Matches when {@code agent.embedding.provider} asks for a model: any provider but
 * {@code none}, and {@code auto} only when the in-process model's package is present.
 */
class EmbeddingModelCondition extends SpringBootCondition {

	static final String LOCAL_MODEL_CLASS = "dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel";

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		Provider provider = provider(Binder.get(context.getEnvironment())
			.bind("agent.embedding.provider", String.class)
			.orElse("auto"));
		if (provider == Provider.NONE) {
			return ConditionOutcome.noMatch("agent.embedding.provider is none");
		}
		if (provider == Provider.AUTO && !ClassUtils.isPresent(LOCAL_MODEL_CLASS, context.getClassLoader())) {
			return ConditionOutcome
				.noMatch("agent.embedding.provider is auto and the in-process model's package is absent");
		}
		return ConditionOutcome.match("agent.embedding.provider is " + provider.name().toLowerCase(Locale.ROOT));
	}

	// read here, before the properties are bound, so a typo fails with our message
	private static Provider provider(String value) {
		for (Provider provider : Provider.values()) {
			if (provider.name().equalsIgnoreCase(value.strip())) {
				return provider;
			}
		}
		throw new AgentConfigurationException("agent.embedding.provider is '" + value
				+ "', which is none of auto, openai, ollama, local, none",
				"Set agent.embedding.provider to one of auto, openai, ollama, local or none.");
	}

}
