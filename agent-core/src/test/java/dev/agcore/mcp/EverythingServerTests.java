package dev.agcore.mcp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolOrigin;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.ToolProgress;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What every transport must do against the reference server-everything: tools with their
 * schemas and permissions, results of every content type, error results, progress,
 * cancellation, resources and prompts. {@link #settings()} says how to reach the server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class EverythingServerTests {

	static final Duration TIMEOUT = Duration.ofSeconds(20);

	McpClientRegistry registry;

	/** The server, named {@code everything}. */
	abstract McpServerSettings settings();

	@BeforeAll
	void connect() {
		this.registry = McpClientRegistry.builder().server(settings()).build();
		StepVerifier.create(this.registry.start()).expectComplete().verify(TIMEOUT);
	}

	@AfterAll
	void closeRegistry() {
		if (this.registry != null) {
			this.registry.close();
		}
	}

	@Test
	void offersTheServersToolsNamedAfterTheServerWithTheirSchemaPermissionAndOrigin() {
		ToolCallback echo = tool("everything__echo");
		assertThat(echo.spec().description()).isEqualTo("Echoes back the input string");
		assertThat(echo.spec().inputSchema().get("type").asString()).isEqualTo("object");
		assertThat(echo.spec().inputSchema().get("properties").get("message").get("type").asString())
			.isEqualTo("string");
		assertThat(echo.spec().inputSchema().has("$schema")).isFalse();
		// echo says it is read-only, but the server is not trusted: its annotations are not believed
		assertThat(echo.metadata().permission()).isEqualTo(ToolPermission.DESTRUCTIVE);
		assertThat(echo.metadata().category()).isEqualTo("mcp:everything");
		assertThat(echo.origin()).isEqualTo(ToolOrigin.mcp("everything", "echo"));
		assertThat(echo.source()).isEqualTo("mcp server 'everything'");
		assertThat(this.registry.statuses()).singleElement().satisfies((status) -> {
			assertThat(status.state()).isEqualTo(McpConnectionState.CONNECTED);
			assertThat(status.toolCount()).isEqualTo(this.registry.tools().size());
			assertThat(status.connectedSince()).isNotNull();
		});
	}

	@Test
	void aTrustedServersReadOnlyHintMakesAToolReadOnly() {
		McpClientRegistry trusted = McpClientRegistry.builder().server(settings().withTrusted(true)).build();
		try {
			StepVerifier.create(trusted.start()).expectComplete().verify(TIMEOUT);
			assertThat(trusted.tools()).filteredOn((tool) -> tool.spec().name().equals("everything__echo"))
				.singleElement()
				.satisfies((tool) -> assertThat(tool.metadata().permission()).isEqualTo(ToolPermission.READ_ONLY));
		}
		finally {
			trusted.close();
		}
	}

	@Test
	void offersToolsTheServerRegisteredAfterInitialisationAndAnnouncedAsChanged() {
		// server-everything registers its task tool once it knows the client, and sends list_changed
		assertThat(this.registry.tools()).extracting((tool) -> tool.spec().name())
			.contains("everything__simulate-research-query", "everything__get-sum");
	}

	@Test
	void callsAToolAndReturnsItsText() throws Exception {
		assertThat(call("everything__echo", "{\"message\":\"hello\"}")).isEqualTo("Echo: hello");
		assertThat(call("everything__get-sum", "{\"a\":2,\"b\":3}")).isEqualTo("The sum of 2 and 3 is 5.");
	}

	@Test
	void anErrorResultThrowsWithTheServersText() {
		assertThatExceptionOfType(McpToolException.class)
			.isThrownBy(() -> call("everything__get-sum", "{\"a\":\"two\"}"))
			.withMessageContaining("b");
	}

	@Test
	void anImageBecomesANoteOfItsTypeAndSize() throws Exception {
		assertThat(call("everything__get-tiny-image", "{}")).containsPattern("\\[image image/png, \\d+ bytes\\]");
	}

	@Test
	void anEmbeddedResourceBecomesItsTextUnderItsUri() throws Exception {
		assertThat(call("everything__get-resource-reference", "{\"resourceType\":\"Text\",\"resourceId\":1}"))
			.contains("[resource demo://resource/dynamic/text/1]");
	}

	@Test
	void resourceLinksBecomeTheirUriAndName() throws Exception {
		assertThat(call("everything__get-resource-links", "{\"count\":2}")).contains("[resource link demo://");
	}

	@Test
	void aLongRunningToolReportsItsProgress() throws Exception {
		List<double[]> reports = new CopyOnWriteArrayList<>();
		String result = call("everything__trigger-long-running-operation", "{\"duration\":1,\"steps\":4}",
				(progress, total, message) -> reports.add(new double[] { progress, (total != null) ? total : -1 }));
		assertThat(result).contains("Long running operation completed");
		assertThat(reports).extracting((report) -> report[0]).containsExactly(1.0, 2.0, 3.0, 4.0);
		assertThat(reports).extracting((report) -> report[1]).containsOnly(4.0);
	}

	@Test
	void anInterruptedCallEndsAtOnceAfterItsFirstProgress() throws Exception {
		CompletableFuture<Void> progressed = new CompletableFuture<>();
		CompletableFuture<Thread> caller = new CompletableFuture<>();
		CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
			caller.complete(Thread.currentThread());
			try {
				call("everything__trigger-long-running-operation", "{\"duration\":10,\"steps\":10}",
						(progress, total, message) -> progressed.complete(null));
				return null;
			}
			catch (Exception ex) {
				return ex;
			}
		}, (task) -> Schedulers.boundedElastic().schedule(task));
		progressed.get(10, TimeUnit.SECONDS);
		long interrupted = System.nanoTime();
		caller.get().interrupt();
		assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
		assertThat(Duration.ofNanos(System.nanoTime() - interrupted)).isLessThan(Duration.ofSeconds(2));
		// the connection is still usable
		assertThat(call("everything__echo", "{\"message\":\"after\"}")).isEqualTo("Echo: after");
	}

	@Test
	void listsAndReadsResources() {
		McpConnection connection = connection();
		StepVerifier.create(connection.listResources())
			.assertNext((resources) -> assertThat(resources).isNotEmpty()
				.allSatisfy((resource) -> assertThat(resource.uri()).startsWith("demo://")))
			.expectComplete()
			.verify(TIMEOUT);
		StepVerifier.create(connection.readResource("demo://resource/dynamic/text/3"))
			.assertNext((contents) -> assertThat(contents).singleElement().satisfies((part) -> {
				assertThat(part.isText()).isTrue();
				assertThat(part.text()).contains("3");
			}))
			.expectComplete()
			.verify(TIMEOUT);
		StepVerifier.create(connection.readResourcesAsText(List.of("demo://resource/dynamic/text/1",
				"demo://resource/dynamic/blob/2")))
			.assertNext((text) -> assertThat(text).contains("[resource demo://resource/dynamic/text/1]\n")
				.containsPattern("\\[resource demo://resource/dynamic/blob/2 [^,]+, \\d+ bytes\\]"))
			.expectComplete()
			.verify(TIMEOUT);
	}

	@Test
	void listsAndGetsPromptsWithArguments() {
		McpConnection connection = connection();
		StepVerifier.create(connection.listPrompts())
			.assertNext((prompts) -> {
				assertThat(prompts).extracting(McpPrompt::name).contains("simple-prompt", "args-prompt");
				assertThat(prompts).filteredOn((prompt) -> prompt.name().equals("args-prompt"))
					.singleElement()
					.satisfies((prompt) -> assertThat(prompt.arguments()).extracting(McpPrompt.Argument::name,
							McpPrompt.Argument::required)
						.contains(org.assertj.core.groups.Tuple.tuple("city", true)));
			})
			.expectComplete()
			.verify(TIMEOUT);
		StepVerifier.create(connection.getPrompt("args-prompt", Map.of("city", "Paris")))
			.assertNext((prompt) -> {
				assertThat(prompt.messages()).isNotEmpty();
				assertThat(prompt.text()).contains("Paris");
			})
			.expectComplete()
			.verify(TIMEOUT);
	}

	@Test
	void anUnknownPromptFailsNamingTheServer() {
		StepVerifier.create(connection().getPrompt("no-such-prompt", Map.of()))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(McpException.class)
				.hasMessageContaining("MCP server 'everything'")
				.hasMessageContaining("no-such-prompt"))
			.verify(TIMEOUT);
	}

	McpConnection connection() {
		return this.registry.connection("everything").orElseThrow();
	}

	ToolCallback tool(String name) {
		List<String> names = new ArrayList<>();
		for (ToolCallback tool : this.registry.tools()) {
			names.add(tool.spec().name());
			if (tool.spec().name().equals(name)) {
				return tool;
			}
		}
		throw new AssertionError("no tool " + name + " in " + names);
	}

	String call(String tool, String arguments) throws Exception {
		return call(tool, arguments, ToolProgress.NONE);
	}

	String call(String tool, String arguments, ToolProgress progress) throws Exception {
		ToolContext context = new ToolContext("call-1", "session-1", "agent", Map.of()).withProgress(progress);
		if (!Schedulers.isInNonBlockingThread()) {
			return tool(tool).call(arguments, context);
		}
		try {
			return CompletableFuture.supplyAsync(() -> {
				try {
					return tool(tool).call(arguments, context);
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			}).get();
		}
		catch (ExecutionException ex) {
			throw (Exception) ex.getCause().getCause();
		}
	}

}
