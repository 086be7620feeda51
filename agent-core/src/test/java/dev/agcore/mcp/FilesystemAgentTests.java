package dev.agcore.mcp;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.ToolScope;
import dev.agcore.tool.ToolSpec;
import dev.agcore.tool.permission.ToolPermissionRules;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import reactor.test.StepVerifier;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Agent turns end to end through {@link Agent#builder()} with the tools of the real
 * server-filesystem, scoped to a temporary directory, and a scripted model.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FilesystemAgentTests {

	private Path directory;

	private McpClientRegistry registry;

	@BeforeAll
	void connect(@TempDir Path directory) throws Exception {
		this.directory = directory;
		Files.writeString(this.directory.resolve("notes.txt"), "The meeting moved to Thursday.");
		this.registry = McpClientRegistry.builder()
			.server(McpTestServers.filesystem("filesystem", this.directory.toRealPath()))
			.build();
		StepVerifier.create(this.registry.start()).expectComplete().verify(Duration.ofSeconds(20));
	}

	@AfterAll
	void closeRegistry() {
		if (this.registry != null) {
			this.registry.close();
		}
	}

	@Test
	void anAgentReadsAFileThroughTheServerAndAnswersWithItsContent() throws Exception {
		String path = this.directory.toRealPath().resolve("notes.txt").toString();
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
			Message last = request.messages().get(request.messages().size() - 1);
			if (last instanceof ToolResultMessage result) {
				return text("The file says: " + result.text());
			}
			return toolCalls(new ToolCall("c1", "filesystem__read_text_file", "{\"path\":\"" + path + "\"}"));
		});
		Agent agent = Agent.builder()
			.name("reader")
			.model(model)
			.toolSource(this.registry, ToolScope.of("mcp:filesystem/read_*", "mcp:filesystem/list_directory"))
			.build();

		AgentResult result = agent.call("s1", "What does notes.txt say?");

		assertThat(result.output()).isEqualTo("The file says: The meeting moved to Thursday.");
		assertThat(model.requests().get(0).tools()).extracting(ToolSpec::name)
			.contains("filesystem__read_text_file", "filesystem__list_directory")
			.doesNotContain("filesystem__write_file");
	}

	@Test
	void permissionRulesApplyToTheToolsOfMcpServers() throws Exception {
		Path target = this.directory.toRealPath().resolve("written.txt");
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1",
				"filesystem__write_file", "{\"path\":\"" + target + "\",\"content\":\"x\"}")), text("could not"));
		Agent agent = Agent.builder()
			.name("careful")
			.model(model)
			.toolSource(this.registry, ToolScope.of("mcp:filesystem"))
			.permissionPolicy(ToolPermissionRules.builder().denyPermissions(ToolPermission.DESTRUCTIVE).build())
			.build();

		AgentResult result = agent.call("s1", "Write a file");

		assertThat(result.toolExecutions()).singleElement().satisfies((execution) -> {
			assertThat(execution.error()).isTrue();
			assertThat(execution.result()).contains("was denied");
		});
		assertThat(target).doesNotExist();
	}

	@Test
	void aFileOutsideTheDirectoryIsAToolErrorWithTheServersText() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "filesystem__read_text_file", "{\"path\":\"/etc/hostname\"}")),
				text("not allowed"));
		Agent agent = Agent.builder()
			.name("reader")
			.model(model)
			.toolSource(this.registry, ToolScope.all())
			.build();

		AgentResult result = agent.call("s1", "Read /etc/hostname");

		assertThat(result.toolExecutions()).singleElement().satisfies((execution) -> {
			assertThat(execution.error()).isTrue();
			assertThat(execution.result()).startsWith("Error: tool 'filesystem__read_text_file' failed:")
				.contains("outside allowed directories");
		});
		assertThat(List.of(result.output())).containsExactly("not allowed");
	}

}
