package dev.agcore.tool;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ToolPermission}.
 */
class ToolPermissionTests {

	@ParameterizedTest
	@CsvSource({ "read-only, read-only", "READ_ONLY, read-only", "read_only, read-only", "Write, write",
			"destructive, destructive", "billing:refund, billing:refund" })
	void parsesLevelsAndCustomPermissions(String text, String value) {
		assertThat(ToolPermission.of(text).value()).isEqualTo(value);
	}

	@Test
	void levelsAreNotCustom() {
		assertThat(ToolPermission.of("read-only")).isSameAs(ToolPermission.READ_ONLY);
		assertThat(ToolPermission.READ_ONLY.isCustom()).isFalse();
		assertThat(ToolPermission.custom("billing:refund").isCustom()).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "admin", "Billing:Refund", "billing:", ":refund", "a:b:c", "" })
	void rejectsAnythingElse(String text) {
		assertThatIllegalArgumentException().isThrownBy(() -> ToolPermission.of(text))
			.withMessageContaining("use read-only, write, destructive or a custom 'namespace:name' in lower case");
	}

	@Test
	void customRequiresANamespace() {
		assertThatIllegalArgumentException().isThrownBy(() -> ToolPermission.custom("write"))
			.withMessage("Custom tool permission 'write' must be 'namespace:name'");
	}

}
