package dev.agcore.tool;

import java.util.List;

import dev.agcore.json.AgentJson;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ToolScope}.
 */
class ToolScopeTests {

	private final ToolRegistry registry = ToolRegistry.of(List.of(tool("notes_add", "notes"),
			tool("notes_list", "notes"), tool("notebook", null), tool("weather", "info"), tool("weather2", "info")));

	@Test
	void selectsByNameGlobAndGroupInRegistryOrder() {
		assertThat(names(ToolScope.of("weather", "notes_*"))).containsExactly("notes_add", "notes_list", "weather");
		assertThat(names(ToolScope.of("group:notes"))).containsExactly("notes_add", "notes_list");
		assertThat(names(ToolScope.of("group:inf?"))).containsExactly("weather", "weather2");
		assertThat(names(ToolScope.of("note*"))).containsExactly("notes_add", "notes_list", "notebook");
		assertThat(names(ToolScope.of("weather?"))).containsExactly("weather2");
		assertThat(names(ToolScope.all())).hasSize(5);
		assertThat(names(ToolScope.none())).isEmpty();
	}

	@Test
	void globsAndGroupsMayMatchNothing() {
		assertThat(names(ToolScope.of("admin_*", "group:admin"))).isEmpty();
	}

	@Test
	void unknownNameFailsNamingKnownTools() {
		assertThatExceptionOfType(ToolDefinitionException.class)
			.isThrownBy(() -> ToolScope.of("weather", "forecast").select(this.registry))
			.withMessage("Unknown tool 'forecast' in tool scope [weather, forecast]. Known tools: "
					+ "[notes_add, notes_list, notebook, weather, weather2]");
	}

	@Test
	void globCharactersOtherThanStarAndQuestionMarkAreLiteral() {
		ToolRegistry dotted = ToolRegistry.of(List.of(tool("a.b", null), tool("axb", null)));
		assertThat(ToolScope.of("a.*").select(dotted)).extracting((tool) -> tool.spec().name()).containsExactly("a.b");
	}

	@Test
	void rejectsEmptyEntries() {
		assertThatIllegalArgumentException().isThrownBy(() -> ToolScope.of("notes", " "))
			.withMessage("Tool scope entry ' ' is empty");
		assertThatIllegalArgumentException().isThrownBy(() -> ToolScope.of("group:"))
			.withMessage("Tool scope entry 'group:' is empty");
	}

	private List<String> names(ToolScope scope) {
		return scope.select(this.registry).stream().map((tool) -> tool.spec().name()).toList();
	}

	static ToolCallback tool(String name, String category) {
		ToolSpec spec = new ToolSpec(name, name, AgentJson.mapper().createObjectNode().put("type", "object"));
		ToolMetadata metadata = ToolMetadata.DEFAULT.withCategory(category);
		return new ToolCallback() {

			@Override
			public ToolSpec spec() {
				return spec;
			}

			@Override
			public ToolMetadata metadata() {
				return metadata;
			}

			@Override
			public String call(String arguments, ToolContext context) {
				return name;
			}

		};
	}

}
