package dev.agcore.mcp;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.agcore.json.AgentJson;
import dev.agcore.message.ToolCall;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.ToolScope;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Against {@code paging-server.cjs}, a server on the official TypeScript SDK: listings of
 * several pages, a tool list the server changes and announces, and a cancelled call the
 * server is told about.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PagingServerTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private McpClientRegistry registry;

	@BeforeAll
	void connect() {
		this.registry = McpClientRegistry.builder().server(McpTestServers.paging("paging")).build();
		StepVerifier.create(this.registry.start()).expectComplete().verify(TIMEOUT);
	}

	@AfterAll
	void closeRegistry() {
		if (this.registry != null) {
			this.registry.close();
		}
	}

	@Test
	void listsToolsOfEveryPage() {
		// 8 tools in pages of 2
		assertThat(this.registry.tools()).extracting((tool) -> tool.spec().name())
			.contains("paging__tool-0", "paging__tool-4", "paging__wait-for-cancel", "paging__cancellations",
					"paging__add-tool");
	}

	@Test
	void aToolWithoutAnnotationsIsDestructive() {
		assertThat(tool("paging__tool-0").metadata().permission()).isEqualTo(ToolPermission.DESTRUCTIVE);
	}

	@Test
	void aToolWithoutAnnotationsOfATrustedServerIsDestructiveToo() {
		// the MCP default: a tool that does not say it is read-only or not destructive is destructive
		McpClientRegistry trusted = McpClientRegistry.builder()
			.server(McpTestServers.paging("trusted").withTrusted(true))
			.build();
		try {
			StepVerifier.create(trusted.start()).expectComplete().verify(TIMEOUT);
			assertThat(trusted.tools()).filteredOn((tool) -> tool.spec().name().equals("trusted__tool-0"))
				.singleElement()
				.satisfies((tool) -> assertThat(tool.metadata().permission()).isEqualTo(ToolPermission.DESTRUCTIVE));
		}
		finally {
			trusted.close();
		}
	}

	@Test
	void listsResourcesAndPromptsOfEveryPage() {
		McpConnection connection = this.registry.connection("paging").orElseThrow();
		StepVerifier.create(connection.listResources())
			.assertNext((resources) -> assertThat(resources).extracting(McpResource::uri)
				.containsExactly("test://resource/0", "test://resource/1", "test://resource/2"))
			.expectComplete()
			.verify(TIMEOUT);
		StepVerifier.create(connection.listPrompts())
			.assertNext((prompts) -> assertThat(prompts).extracting(McpPrompt::name)
				.containsExactly("prompt-0", "prompt-1", "prompt-2"))
			.expectComplete()
			.verify(TIMEOUT);
	}

	@Test
	void aToolAddedAndAnnouncedByTheServerIsOfferedNext() throws Exception {
		assertThat(this.registry.tools()).noneMatch((tool) -> tool.spec().name().equals("paging__added"));
		assertThat(call("paging__add-tool", "{\"name\":\"added\"}")).isEqualTo("added added");
		// the SDK re-lists the tools on a shared scheduler, which other test classes of this
		// JVM may keep busy for a while: a generous bound, as the point is that it happens
		McpTestServers.eventually(Duration.ofSeconds(90), () -> assertThat(this.registry.tools())
			.anyMatch((tool) -> tool.spec().name().equals("paging__added")));
		assertThat(this.registry.statuses().get(0).toolCount()).isEqualTo(this.registry.tools().size());
		assertThat(call("paging__added", "{}")).isEqualTo("added: ");
	}

	@Test
	void anInterruptedCallIsCancelledOnTheServerWithItsRequestId() throws Exception {
		CompletableFuture<Thread> caller = new CompletableFuture<>();
		CompletableFuture<Throwable> outcome = new CompletableFuture<>();
		Schedulers.boundedElastic().schedule(() -> {
			caller.complete(Thread.currentThread());
			try {
				call("paging__wait-for-cancel", "{}");
				outcome.complete(null);
			}
			catch (Exception ex) {
				outcome.complete(ex);
			}
		});
		// the call is on its way once the server holds it; interrupting earlier would cancel nothing
		Thread.sleep(500);
		caller.get(5, TimeUnit.SECONDS).interrupt();
		assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
		McpTestServers.eventually(TIMEOUT, () -> assertThat(call("paging__cancellations", "{}"))
				.contains("\"reason\":\"the caller cancelled the tool call\"")
				.containsPattern("\"requestId\":\"[^\"]+-\\d+\""));
	}

	@Test
	void aToolCallTheAgentTimesOutIsCancelledOnTheServer() throws Exception {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "paging__wait-for-cancel", "{}")), text("gave up"));
		Agent agent = Agent.builder()
			.name("impatient")
			.model(model)
			.toolSource(this.registry, ToolScope.of("mcp:paging/wait-for-cancel"))
			.toolTimeout(Duration.ofMillis(700))
			.build();
		int before = cancellations();

		AgentResult result = agent.call("s1", "wait");

		assertThat(result.toolExecutions()).singleElement().satisfies((execution) -> {
			assertThat(execution.error()).isTrue();
			assertThat(execution.result()).contains("did not finish within 700 ms");
		});
		McpTestServers.eventually(TIMEOUT, () -> assertThat(cancellations()).isEqualTo(before + 1));
	}

	private int cancellations() throws Exception {
		return AgentJson.mapper().readTree(call("paging__cancellations", "{}")).size();
	}

	private ToolCallback tool(String name) {
		return this.registry.tools()
			.stream()
			.filter((tool) -> tool.spec().name().equals(name))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no tool " + name));
	}

	private String call(String name, String arguments) throws Exception {
		return tool(name).call(arguments, new ToolContext("call", "session", "agent", Map.of()));
	}

}
