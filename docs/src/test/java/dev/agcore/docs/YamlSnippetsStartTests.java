package dev.agcore.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.agcore.docs.support.DocsTools;
import dev.agcore.docs.support.SnippetContexts;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every YAML snippet of the docs (a {@code .yml} or {@code .yaml} file under
 * {@code src/test/resources}) starts as an application's {@code application.yml}: every
 * auto-configuration, the {@link DocsTools}, a scripted model for each provider and
 * named model (a fragment that configures none gets one {@code ChatModel} bean, as the
 * application around it would have its model); the context has no startup failure and has every agent the snippet
 * configures. Snippets that need more (a database, beans of the page's own, a call to
 * assert) are started by their page's test instead, named in {@link #STARTED_ELSEWHERE}.
 */
class YamlSnippetsStartTests {

	/** Snippet files started by another test, with that test's class name. */
	static final Map<String, String> STARTED_ELSEWHERE = Map.ofEntries(
			Map.entry("configuration/reference.yml", "dev.agcore.docs.configuration.ConfigurationTests"),
			Map.entry("getting-started/application.yml", "dev.agcore.docs.gettingstarted.GettingStartedTests"),
			Map.entry("memory/memory-tools.yml", "dev.agcore.docs.memory.MemoryTests"),
			Map.entry("memory/postgres.yml", "dev.agcore.docs.memory.MemoryTests"),
			Map.entry("memory/redis.yml", "dev.agcore.docs.memory.MemoryTests"),
			Map.entry("mcp/permissions.yml", "dev.agcore.docs.mcp.McpTests"),
			Map.entry("mcp/prompt.yml", "dev.agcore.docs.mcp.McpTests"),
			Map.entry("mcp/scopes.yml", "dev.agcore.docs.mcp.McpTests"),
			Map.entry("mcp/server.yml", "dev.agcore.docs.mcp.McpTests"),
			Map.entry("mcp/sse.yml", "dev.agcore.docs.mcp.McpTests"),
			Map.entry("mcp/stdio.yml", "dev.agcore.docs.mcp.McpTests"),
			Map.entry("mcp/streamable-http.yml", "dev.agcore.docs.mcp.McpTests"),
			Map.entry("middleware/builtins.yml", "dev.agcore.docs.middleware.MiddlewareTests"),
			Map.entry("middleware/use.yml", "dev.agcore.docs.middleware.MiddlewareTests"),
			Map.entry("multi-agent/session-modes.yml", "dev.agcore.docs.multiagent.MultiAgentTests"),
			Map.entry("multi-agent/sub-agents.yml", "dev.agcore.docs.multiagent.MultiAgentTests"),
			Map.entry("plans/researcher.yml", "dev.agcore.docs.plans.PlansTests"),
			Map.entry("prompts/support-agent.yml", "dev.agcore.docs.prompts.PromptsTests"),
			Map.entry("providers/named-models.yml", "dev.agcore.docs.providers.ProvidersTests"),
			Map.entry("retrieval/knowledge.yml", "dev.agcore.docs.retrieval.RetrievalTests"),
			Map.entry("retrieval/lucene.yml", "dev.agcore.docs.retrieval.RetrievalTests"),
			Map.entry("runners/runners.yml", "dev.agcore.docs.runners.RunnersTests"),
			Map.entry("runs/redis.yml", "dev.agcore.docs.runs.RunsTests"),
			Map.entry("runs/schedules.yml", "dev.agcore.docs.runs.RunsTests"),
			Map.entry("security/budgets.yml", "dev.agcore.docs.security.SecurityTests"),
			Map.entry("security/untrusted-content.yml", "dev.agcore.docs.security.SecurityTests"),
			Map.entry("tools/configuration.yml", "dev.agcore.docs.tools.ToolsTests"));

	private static final Pattern AGENT = Pattern.compile("^agent\\.agents\\.([^.\\[]+)\\..*");

	@TestFactory
	Stream<DynamicTest> everyYamlSnippetStartsWithItsAgents() {
		Path resources = DocsPages.module().resolve("src/test/resources");
		return snippets(resources).map((file) -> {
			String name = resources.relativize(file).toString().replace('\\', '/');
			return DynamicTest.dynamicTest(name, () -> {
				if (STARTED_ELSEWHERE.containsKey(name)) {
					// fails when the named test is renamed or removed
					Class.forName(STARTED_ELSEWHERE.get(name));
					return;
				}
				Set<String> agents = agents(name);
				ReactiveWebApplicationContextRunner runner = SnippetContexts.yaml(name)
					.withUserConfiguration(DocsTools.class);
				if (!configuresModels(name)) {
					// a fragment: the application around it has its model
					runner = runner.withBean("model", ChatModel.class,
							() -> ScriptedChatModel.answering((request) -> ScriptedChatModel.text("ok")));
				}
				runner.run((context) -> {
					assertThat(context).as(name).hasNotFailed();
					AgentRegistry registry = context.getBean(AgentRegistry.class);
					for (String agent : agents) {
						assertThat(registry.find(agent)).as("agent '%s' of %s", agent, name).isPresent();
					}
				});
			});
		});
	}

	private static Stream<Path> snippets(Path resources) {
		try (Stream<Path> files = Files.walk(resources)) {
			return files.filter((file) -> file.toString().endsWith(".yml") || file.toString().endsWith(".yaml"))
				.sorted()
				.toList()
				.stream();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static boolean configuresModels(String resource) throws IOException {
		for (PropertySource<?> source : new YamlPropertySourceLoader().load(resource, new ClassPathResource(resource))) {
			for (String key : ((EnumerablePropertySource<?>) source).getPropertyNames()) {
				if (key.startsWith("agent.providers.") || key.startsWith("agent.models.")) {
					return true;
				}
			}
		}
		return false;
	}

	private static Set<String> agents(String resource) throws IOException {
		Set<String> agents = new TreeSet<>();
		for (PropertySource<?> source : new YamlPropertySourceLoader().load(resource, new ClassPathResource(resource))) {
			for (String key : ((EnumerablePropertySource<?>) source).getPropertyNames()) {
				Matcher matcher = AGENT.matcher(key);
				if (matcher.matches()) {
					agents.add(matcher.group(1));
				}
			}
		}
		return agents;
	}

}
