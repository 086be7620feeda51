package dev.agcore.autoconfigure.model;

import java.util.Set;

import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatOptions;
import dev.agcore.provider.openai.OpenAiChatModel;
import dev.agcore.provider.openai.OpenAiSettings;

/**
 * Builds {@link OpenAiChatModel}s for {@code type: openai}, any server with the OpenAI
 * chat completions API.
 */
final class OpenAiProviderFactory implements ProviderFactory {

	@Override
	public Set<String> types() {
		return Set.of("openai");
	}

	@Override
	public ChatModel create(ProviderSource source) {
		String baseUrl = source.baseUrl(null, "https://api.openai.com/v1 or http://localhost:11434/v1 for Ollama");
		String model = source.requireModel("gpt-4o-mini");
		ChatOptions defaults = source.defaultOptions();
		OpenAiSettings settings = new OpenAiSettings(source.name(), baseUrl, source.apiKey(), model,
				defaults.temperature(), defaults.maxTokens(), source.responseTimeout());
		return OpenAiChatModel.builder().settings(settings).webClientBuilder(source.webClientBuilder()).build();
	}

}
