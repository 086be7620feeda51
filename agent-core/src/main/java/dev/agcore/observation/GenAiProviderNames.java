package dev.agcore.observation;

import java.util.Locale;
import java.util.Map;

/**
 * Maps provider names to the well-known values of the OpenTelemetry
 * {@code gen_ai.provider.name} attribute; other names (configured, so bounded) pass
 * through.
 */
public final class GenAiProviderNames {

	private static final Map<String, String> WELL_KNOWN = Map.of("openai", "openai", "anthropic", "anthropic",
			"gemini", "gcp.gemini", "google", "gcp.gemini", "vertex", "gcp.vertex_ai", "mistral", "mistral_ai",
			"bedrock", "aws.bedrock", "azure-openai", "azure.ai.openai", "xai", "x_ai");

	private GenAiProviderNames() {
	}

	/**
	 * Return the OpenTelemetry value for a provider name.
	 * @param providerName the provider's name, as the model reports it
	 * @return the well-known value, else the name itself
	 */
	public static String of(String providerName) {
		String known = WELL_KNOWN.get(providerName.toLowerCase(Locale.ROOT));
		return (known != null) ? known : providerName;
	}

}
