package dev.agcore.mcp;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class McpToolNamesTests {

	private final McpToolNames names = new McpToolNames("__");

	@Test
	void joinsServerAndToolWithTheSeparator() {
		assertThat(this.names.name("filesystem", "read_file")).isEqualTo("filesystem__read_file");
		assertThat(new McpToolNames("-").name("fs", "read")).isEqualTo("fs-read");
	}

	@Test
	void replacesCharactersModelApisRejectWithUnderscores() {
		assertThat(this.names.name("my.server", "read file/now")).isEqualTo("my_server__read_file_now");
		assertThat(this.names.name("s", "ünïcode")).isEqualTo("s___n_code");
	}

	@Test
	void shortensLongNamesToSixtyFourCharactersKeepingThemDistinctAndStable() {
		String tool = "a".repeat(80);
		String name = this.names.name("server", tool);
		assertThat(name).hasSize(64).startsWith("server__aaaa").matches("[a-zA-Z0-9_-]{64}");
		assertThat(this.names.name("server", tool)).isEqualTo(name);
		assertThat(this.names.name("server", tool + "b")).isNotEqualTo(name).hasSize(64);
	}

	@Test
	void anAlternativeNameDiffersFromTheFirstAndFits() {
		String first = this.names.name("s", "a.b");
		assertThat(this.names.name("s", "a_b")).isEqualTo(first);
		assertThat(this.names.alternative("s", "a_b")).isNotEqualTo(first).startsWith("s__a_b_").hasSize(15);
		assertThat(this.names.alternative("s", "x".repeat(80))).hasSize(64);
	}

	@Test
	void aSeparatorMustBeShortAndOfAllowedCharacters() {
		assertThatIllegalArgumentException().isThrownBy(() -> new McpToolNames("."))
			.withMessageContaining("Tool name separator '.'");
		assertThatIllegalArgumentException().isThrownBy(() -> new McpToolNames(""));
		assertThatIllegalArgumentException().isThrownBy(() -> new McpToolNames("_________"));
	}

}
