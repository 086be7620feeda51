package dev.agcore.autoconfigure.model;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ModelCapability;
import dev.agcore.provider.openai.OpenAiChatModel;
import dev.agcore.provider.openai.OpenAiQuirks;
import dev.agcore.provider.openai.OpenAiSettings;
import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * Builds {@link OpenAiChatModel}s for {@code type: openai}, any server with the OpenAI
 * chat completions API, and for the presets of such servers ({@code azure-openai},
 * {@code deepseek}, {@code qwen}/{@code dashscope}, {@code mistral}, {@code groq},
 * {@code openrouter}, {@code vllm}, {@code lm-studio}), which fill in the base URL, the
 * authentication and the server's quirks. A configured base URL always wins.
 */
final class OpenAiProviderFactory implements ProviderFactory {

	/** The Azure OpenAI {@code api-version} used when none is configured. */
	static final String AZURE_DEFAULT_API_VERSION = "2024-10-21";

	private static final String OPENAI_URL = "https://api.openai.com/v1";

	private static final Set<ModelCapability> TEXT_TOOLS_REASONING = EnumSet.of(ModelCapability.TOOLS,
			ModelCapability.STREAMING, ModelCapability.REASONING);

	private static final Set<ModelCapability> NO_PDF = EnumSet.of(ModelCapability.TOOLS, ModelCapability.STREAMING,
			ModelCapability.STRUCTURED_OUTPUT, ModelCapability.REASONING, ModelCapability.IMAGES);

	private static final Map<String, Preset> PRESETS = Map.of("deepseek",
			new Preset("https://api.deepseek.com", "DEEPSEEK_API_KEY", OpenAiQuirks.DEEPSEEK, TEXT_TOOLS_REASONING),
			"qwen",
			new Preset("https://dashscope-intl.aliyuncs.com/compatible-mode/v1", "DASHSCOPE_API_KEY",
					OpenAiQuirks.COMPATIBLE,
					EnumSet.of(ModelCapability.TOOLS, ModelCapability.STREAMING, ModelCapability.REASONING,
							ModelCapability.IMAGES)),
			"mistral",
			new Preset("https://api.mistral.ai/v1", "MISTRAL_API_KEY", OpenAiQuirks.MISTRAL,
					EnumSet.of(ModelCapability.TOOLS, ModelCapability.STREAMING, ModelCapability.STRUCTURED_OUTPUT,
							ModelCapability.IMAGES)),
			"groq", new Preset("https://api.groq.com/openai/v1", "GROQ_API_KEY", OpenAiQuirks.COMPATIBLE, NO_PDF),
			"openrouter",
			new Preset("https://openrouter.ai/api/v1", "OPENROUTER_API_KEY", OpenAiQuirks.COMPATIBLE, null),
			"vllm", new Preset("http://localhost:8000/v1", null, OpenAiQuirks.COMPATIBLE, NO_PDF), "lm-studio",
			new Preset("http://localhost:1234/v1", null, OpenAiQuirks.COMPATIBLE, NO_PDF));

	@Override
	public Set<String> types() {
		return Set.of("openai", "azure-openai", "deepseek", "qwen", "dashscope", "mistral", "groq", "openrouter",
				"vllm", "lm-studio");
	}

	@Override
	public ChatModel create(ProviderSource source) {
		OpenAiSettings settings = switch (source.type()) {
			case "openai" -> openAi(source);
			case "azure-openai" -> azure(source);
			case "dashscope" -> preset(source, PRESETS.get("qwen"));
			default -> preset(source, PRESETS.get(source.type()));
		};
		settings = settings.withDefaultOptions(source.defaultOptions())
			.withHeaders(headers(source))
			.withExtraBody(source.extraBody());
		return OpenAiChatModel.builder()
			.settings(settings)
			.webClientBuilder(source.webClientBuilder())
			.rateLimitListener(source.rateLimitListener())
			.build();
	}

	// OpenAI itself when no base URL is set but a key is; any compatible server otherwise
	private static OpenAiSettings openAi(ProviderSource source) {
		boolean configured = StringUtils.hasText(source.properties().getBaseUrl());
		String example = OPENAI_URL + " or http://localhost:11434/v1 for Ollama";
		String baseUrl = source.baseUrl((source.apiKey() != null) ? OPENAI_URL : null, example);
		String model = source.requireModel("gpt-4o-mini");
		boolean openAi = !configured || baseUrl.startsWith(OPENAI_URL);
		return settings(source, baseUrl, model).withQuirks(openAi ? OpenAiQuirks.OPENAI : OpenAiQuirks.COMPATIBLE);
	}

	// https://<resource>.openai.azure.com/openai/deployments/<deployment>/chat/completions?api-version=...
	private static OpenAiSettings azure(ProviderSource source) {
		String endpoint = source.baseUrl(null, "https://<resource>.openai.azure.com");
		String deployment = source.requireModel("the deployment name, such as gpt-4o-mini");
		String apiKey = source.requireApiKey("AZURE_OPENAI_API_KEY");
		String apiVersion = StringUtils.hasText(source.properties().getApiVersion())
				? source.properties().getApiVersion().strip() : AZURE_DEFAULT_API_VERSION;
		String root = endpoint.endsWith("/openai") ? endpoint : endpoint + "/openai";
		return settings(source, root, deployment).withApiKey(apiKey)
			.withAuthStyle(OpenAiSettings.AuthStyle.API_KEY)
			.withQueryParameters(Map.of("api-version", apiVersion))
			.withChatPath("/deployments/" + deployment + "/chat/completions")
			.withQuirks(OpenAiQuirks.AZURE);
	}

	private static OpenAiSettings preset(ProviderSource source, Preset preset) {
		String baseUrl = source.baseUrl(preset.baseUrl(), preset.baseUrl());
		String model = source.requireModel("the model to request");
		if (preset.apiKeyVariable() != null) {
			source.requireApiKey(preset.apiKeyVariable());
		}
		OpenAiSettings settings = settings(source, baseUrl, model).withQuirks(preset.quirks());
		return (preset.capabilities() != null) ? settings.withCapabilities(preset.capabilities()) : settings;
	}

	// temperature and max tokens also in their own components, which older code reads
	private static OpenAiSettings settings(ProviderSource source, String baseUrl, String model) {
		return new OpenAiSettings(source.name(), baseUrl, source.apiKey(), model,
				source.defaultOptions().temperature(), source.defaultOptions().maxTokens(), source.responseTimeout());
	}

	private static Map<String, String> headers(ProviderSource source) {
		Map<String, String> headers = source.properties().getHeaders();
		for (String name : headers.keySet()) {
			if (!StringUtils.hasText(name) || name.chars().anyMatch((c) -> c <= ' ' || c == ':' || c >= 127)) {
				throw new AgentConfigurationException(
						source.prefix() + ".headers: '" + name + "' is not a valid header name",
						"Use header names of visible ASCII characters without ':' or spaces.");
			}
		}
		return headers;
	}

	/**
	 * What a preset fills in.
	 *
	 * @param baseUrl the documented API root
	 * @param apiKeyVariable the environment variable the key usually comes from, null
	 * when the server needs none
	 * @param quirks the server's quirks
	 * @param capabilities what the server can do, null for all but prompt caching
	 */
	private record Preset(String baseUrl, @Nullable String apiKeyVariable, OpenAiQuirks quirks,
			@Nullable Set<ModelCapability> capabilities) {

	}

}
