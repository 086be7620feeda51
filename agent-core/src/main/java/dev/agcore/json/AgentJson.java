package dev.agcore.json;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The library's default Jackson mapper settings. Components take a {@link JsonMapper}
 * in their builders; this is what they use when none is given.
 */
public final class AgentJson {

	private static final JsonMapper DEFAULT = JsonMapper.builder()
		.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
		.build();

	private AgentJson() {
	}

	/**
	 * Return the shared default mapper: lenient on unknown properties, otherwise Jackson 3
	 * defaults. Thread-safe.
	 * @return the mapper
	 */
	public static JsonMapper mapper() {
		return DEFAULT;
	}

}
