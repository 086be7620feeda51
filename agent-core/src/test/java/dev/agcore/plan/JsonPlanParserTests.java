package dev.agcore.plan;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link JsonPlanParser}.
 */
class JsonPlanParserTests {

	private final JsonPlanParser parser = new JsonPlanParser();

	@Test
	void parsesStepsAllPendingWithTheGoalAndARandomId() {
		Plan plan = this.parser.parse("{\"steps\":[{\"description\":\"Find flights\"},{\"description\":\"Book one\","
				+ "\"cost\":3}],\"extra\":true}", "Trip to Rome");

		assertThat(plan.goal()).isEqualTo("Trip to Rome");
		assertThat(plan.steps()).extracting(Step::description).containsExactly("Find flights", "Book one");
		assertThat(plan.steps()).extracting(Step::index).containsExactly(0, 1);
		assertThat(plan.steps()).allSatisfy((step) -> assertThat(step.status()).isEqualTo(StepStatus.PENDING));
		assertThat(plan.id()).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}");
		assertThat(this.parser.parse("{\"steps\":[{\"description\":\"a\"}]}", "g").id()).isNotEqualTo(plan.id());
		assertThat(plan.isGraph()).isFalse();
	}

	@Test
	void stripsACodeFenceAndTheProseAroundIt() {
		Plan plan = this.parser.parse("Here is the plan:\n```json\n{\"steps\":[{\"description\":\"One\"}]}\n```\n"
				+ "Let me know {if} this works.", "g");

		assertThat(plan.steps()).extracting(Step::description).containsExactly("One");
	}

	@Test
	void findsTheObjectInProseWithoutAFence() {
		Plan plan = this.parser.parse("Sure! {\"steps\":[{\"description\":\"One\"},{\"description\":\"Two\"}]} Done.",
				"g");

		assertThat(plan.steps()).hasSize(2);
	}

	@Test
	void readsDependencies() {
		Plan plan = this.parser.parse("{\"steps\":[{\"description\":\"a\",\"dependsOn\":[]},{\"description\":\"b\"},"
				+ "{\"description\":\"c\",\"dependsOn\":[0,1,1]}]}", "g");

		assertThat(plan.step(2).dependsOn()).containsExactly(0, 1);
		assertThat(plan.isGraph()).isTrue();
		assertThat(plan.prerequisites(1)).isEmpty();
	}

	@Test
	void invalidJsonIsReportedWithTheParserMessage() {
		assertThatExceptionOfType(PlanParseException.class).isThrownBy(() -> this.parser.parse("{\"steps\": [", "g"))
			.withMessageStartingWith("Plan JSON could not be parsed: ");
		assertThatExceptionOfType(PlanParseException.class).isThrownBy(() -> this.parser.parse("no plan at all", "g"))
			.withMessageStartingWith("Plan JSON could not be parsed: ");
	}

	@Test
	void missingStepsArray() {
		assertThatExceptionOfType(PlanParseException.class)
			.isThrownBy(() -> this.parser.parse("{\"plan\":[{\"description\":\"a\"}]}", "g"))
			.withMessage("Missing 'steps' array");
		assertThatExceptionOfType(PlanParseException.class)
			.isThrownBy(() -> this.parser.parse("{\"steps\":\"a\"}", "g"))
			.withMessage("Missing 'steps' array");
	}

	@Test
	void stepWithoutAStringDescription() {
		assertThatExceptionOfType(PlanParseException.class)
			.isThrownBy(() -> this.parser.parse("{\"steps\":[{\"description\":\"a\"},{\"text\":\"b\"}]}", "g"))
			.withMessage("Step 1 is missing the 'description' field");
		assertThatExceptionOfType(PlanParseException.class)
			.isThrownBy(() -> this.parser.parse("{\"steps\":[{\"description\":42}]}", "g"))
			.withMessage("Step 0 is missing the 'description' field");
		assertThatExceptionOfType(PlanParseException.class)
			.isThrownBy(() -> this.parser.parse("{\"steps\":[\"just text\"]}", "g"))
			.withMessage("Step 0 is missing the 'description' field");
	}

	@Test
	void emptySteps() {
		assertThatExceptionOfType(PlanParseException.class).isThrownBy(() -> this.parser.parse("{\"steps\":[]}", "g"))
			.withMessage("A plan needs at least one step");
	}

	@Test
	void dependenciesOnItselfLaterOrUnknownStepsAreRejected() {
		assertThatExceptionOfType(PlanParseException.class)
			.isThrownBy(() -> this.parser.parse("{\"steps\":[{\"description\":\"a\",\"dependsOn\":[0]}]}", "g"))
			.withMessage("Step 0 depends on itself");
		// a cycle needs a step that depends on a later one
		assertThatExceptionOfType(PlanParseException.class)
			.isThrownBy(() -> this.parser.parse("{\"steps\":[{\"description\":\"a\",\"dependsOn\":[1]},"
					+ "{\"description\":\"b\",\"dependsOn\":[0]}]}", "g"))
			.withMessageContaining("Step 0 depends on step 1, which comes after it");
		assertThatExceptionOfType(PlanParseException.class)
			.isThrownBy(() -> this.parser.parse("{\"steps\":[{\"description\":\"a\"},{\"description\":\"b\","
					+ "\"dependsOn\":[7]}]}", "g"))
			.withMessage("Step 1 depends on the unknown step 7");
		assertThatExceptionOfType(PlanParseException.class)
			.isThrownBy(() -> this.parser.parse("{\"steps\":[{\"description\":\"a\"},{\"description\":\"b\","
					+ "\"dependsOn\":\"0\"}]}", "g"))
			.withMessage("Step 1: 'dependsOn' must be an array of step indexes");
	}

	@Test
	void tooManyStepsAreRejected() {
		assertThatExceptionOfType(PlanParseException.class)
			.isThrownBy(() -> new JsonPlanParser(2).parse(
					"{\"steps\":[{\"description\":\"a\"},{\"description\":\"b\"},{\"description\":\"c\"}]}", "g"))
			.withMessage("The plan has 3 steps; at most 2 are allowed");
	}

}
