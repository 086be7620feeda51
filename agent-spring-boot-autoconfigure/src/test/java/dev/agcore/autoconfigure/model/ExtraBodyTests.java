package dev.agcore.autoconfigure.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ExtraBody}.
 */
class ExtraBodyTests {

	@Test
	void mapsKeyedByIndexAreListsInTheirOrder() {
		Map<String, Object> bound = new LinkedHashMap<>();
		bound.put("1", Map.of("threshold", "BLOCK_NONE"));
		bound.put("0", Map.of("threshold", "BLOCK_ONLY_HIGH"));

		Map<String, Object> typed = ExtraBody.typed(Map.of("safetySettings", bound, "stop", Map.of("[0]", "END")));

		assertThat(typed).isEqualTo(Map.of("safetySettings",
				List.of(Map.of("threshold", "BLOCK_ONLY_HIGH"), Map.of("threshold", "BLOCK_NONE")), "stop",
				List.of("END")));
	}

	@Test
	void listItemsAreTypedToo() {
		assertThat(ExtraBody.typed(Map.of("values", Map.of("0", "8192", "1", "true"))))
			.isEqualTo(Map.of("values", List.of(8192L, true)));
	}

	@Test
	void mapsWithOtherKeysStayMaps() {
		// token ids are not positions: OpenAI's logit_bias stays an object
		Map<String, Object> typed = ExtraBody.typed(Map.of("logit_bias", Map.of("50256", "-100"), "gaps",
				Map.of("0", "a", "2", "b"), "named", Map.of("0", "a", "x", "b")));

		assertThat(typed).isEqualTo(Map.of("logit_bias", Map.of("50256", -100L), "gaps", Map.of("0", "a", "2", "b"),
				"named", Map.of("0", "a", "x", "b")));
	}

}
