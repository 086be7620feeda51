package dev.agcore.runtime;

import jakarta.validation.constraints.Max;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link StructuredAnswers}, the structured-output check agents use, public for
 * chains and code of one's own.
 */
class StructuredAnswersTests {

	record Reading(String sensor, @Max(100) int percent) {
	}

	@Test
	void anAnswerIsReadAsTheType() {
		assertThat(StructuredAnswers.read("```json\n{\"sensor\": \"s1\", \"percent\": 40}\n```", Reading.class))
			.isEqualTo(new Reading("s1", 40));
	}

	@Test
	void anInvalidAnswerFailsWithTheProblemAndTheAnswerQuotedShort() {
		String answer = "{\"sensor\": \"s1\", \"percent\": 400, \"note\": \"" + "x".repeat(600) + "\"}";

		assertThatExceptionOfType(InvalidAnswerException.class)
			.isThrownBy(() -> StructuredAnswers.read(answer, Reading.class))
			.satisfies((ex) -> {
				assertThat(ex.problem()).isEqualTo("'percent' must be less than or equal to 100");
				assertThat(ex.getMessage()).startsWith("The answer is no valid Reading: 'percent' must be less than")
					.endsWith("... (" + answer.length() + " characters)");
			});
	}

	@Test
	void theInstructionsCarryTheSchemaAgentsSend() {
		assertThat(StructuredAnswers.instructions(Reading.class))
			.isEqualTo(StructuredOutput.of(Reading.class).instructions())
			.startsWith("Answer only with a JSON value matching this schema, with no other text: {")
			.contains("\"percent\"");
	}

	@Test
	void theSchemaIsACopy() {
		ObjectNode schema = StructuredAnswers.schema(Reading.class);
		schema.put("title", "changed");

		assertThat(StructuredAnswers.schema(Reading.class).has("title")).isFalse();
	}

}
