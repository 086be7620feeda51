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

	@Test
	void mcpEntriesSelectByServerAndNameOnTheServerNotByLocalName() {
		ToolCallback read = remote("files__read_file", "files", "read_file");
		ToolCallback write = remote("files__write_file", "files", "write_file");
		ToolCallback echo = remote("everything__echo", "everything", "echo");
		ToolCallback local = tool("read_file", null);

		assertThat(ToolScope.of("mcp:files").includes(read)).isTrue();
		assertThat(ToolScope.of("mcp:files/").includes(write)).isTrue();
		assertThat(ToolScope.of("mcp:files/read_*").includes(read)).isTrue();
		assertThat(ToolScope.of("mcp:files/read_*").includes(write)).isFalse();
		assertThat(ToolScope.of("mcp:files/*").includes(echo)).isFalse();
		assertThat(ToolScope.of("mcp:*/echo").includes(echo)).isTrue();
		assertThat(ToolScope.of("mcp:files/read_file").includes(local)).isFalse();
		assertThat(ToolScope.of("mcp:files/files__read_file").includes(read)).isFalse();
		assertThat(ToolScope.all().includes(read)).isTrue();
	}

	@Test
	void mcpEntriesNeverFailSelectionFromTheRegistry() {
		assertThat(names(ToolScope.of("weather", "mcp:files/read_file"))).containsExactly("weather");
		assertThat(ToolScope.of("weather", "mcp:files/read_*", "mcp:git").mcpServers()).containsExactly("files", "git");
	}

	@Test
	void rejectsMcpEntriesWithoutServer() {
		assertThatIllegalArgumentException().isThrownBy(() -> ToolScope.of("mcp:"))
			.withMessage("Tool scope entry 'mcp:' is empty");
		assertThatIllegalArgumentException().isThrownBy(() -> ToolScope.of("mcp:/read_file"))
			.withMessage("Tool scope entry 'mcp:/read_file' is empty");
	}

	private static ToolCallback remote(String localName, String server, String name) {
		ToolCallback tool = tool(localName, null);
		return new ToolCallback() {

			@Override
			public ToolSpec spec() {
				return tool.spec();
			}

			@Override
			public String call(String arguments, ToolContext context) throws Exception {
				return tool.call(arguments, context);
			}

			@Override
			public ToolOrigin origin() {
				return ToolOrigin.mcp(server, name);
			}

		};
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
