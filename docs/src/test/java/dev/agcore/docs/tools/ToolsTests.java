package dev.agcore.docs.tools;

import java.util.ArrayList;
import java.util.List;

import dev.agcore.docs.support.SnippetContexts;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.ToolRegistry;
import dev.agcore.tool.ToolScope;
import dev.agcore.tool.method.MethodTools;
import dev.agcore.tool.permission.ToolPermissionPolicy;
import dev.agcore.tool.permission.ToolPermissionRules;
import dev.agcore.tool.typed.TypedTools;
import org.junit.jupiter.api.Test;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.context.annotation.Bean;

import java.time.Clock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The snippets of docs/tools.md: the tools are created from the classes, with the
 * schemas the page describes, and the yml starts with them.
 */
class ToolsTests {

	private final ChatModel model = ScriptedChatModel.answering((request) -> ScriptedChatModel.text("done"));

	@Test
	void weatherServiceMethodBecomesTheForecastTool() {
		// tag::method-tools[]
		List<ToolCallback> tools = MethodTools.from(new WeatherService());
		// end::method-tools[]
		assertThat(tools).singleElement().satisfies((tool) -> {
			assertThat(tool.spec().name()).isEqualTo("forecast");
			assertThat(tool.spec().inputSchema().path("required").toString()).contains("city", "days")
				.doesNotContain("unit").doesNotContain("context");
			assertThat(tool.metadata().permission()).isEqualTo(ToolPermission.READ_ONLY);
		});
	}

	@Test
	void proxiedBeanToolsAreReadFromTheTargetClass() {
		ProxyFactory factory = new ProxyFactory(new WeatherService());
		factory.setProxyTargetClass(true);
		Object proxy = factory.getProxy();
		List<ToolCallback> tools =
		// tag::proxy[]
		MethodTools.from(proxy, AopUtils.getTargetClass(proxy), "bean 'weatherService'");
		// end::proxy[]
		assertThat(tools).extracting((tool) -> tool.spec().name()).containsExactly("forecast");
	}

	@Test
	void parameterToolsHaveTheirDefaultsAndConstraintsInTheirSchemas() {
		List<ToolCallback> tools = MethodTools.from(new ParameterTools());
		assertThat(tools).extracting((tool) -> tool.spec().name())
			.contains("defaults", "validated", "order", "injected", "raw", "rawDeclared", "callApi");
		String defaults = spec(tools, "defaults");
		assertThat(defaults).contains("\"default\":3", "\"default\":\"en\"");
		assertThat(spec(tools, "validated")).contains("\"minimum\":1", "\"maximum\":14");
		assertThat(spec(tools, "injected")).contains("query").doesNotContain("sessionId");
		assertThat(spec(tools, "rawDeclared")).contains("\"token\"");
	}

	@Test
	void typedToolBecomesATool() {
		// tag::typed-from[]
		ToolCallback tool = TypedTools.from(new ForecastTool());
		// end::typed-from[]
		assertThat(tool.spec().name()).isEqualTo("forecast");
		assertThat(tool.spec().inputSchema().toString()).contains("Where and when to forecast", "City name, e.g. Paris");
	}

	@Test
	void agentSelectsToolsByScopeAndDeniesByPermission() {
		List<ToolCallback> allTools = new ArrayList<>(MethodTools.from(new ScopeTools()));
		allTools.addAll(MethodTools.from(new NoteTools()));
		// tag::registry[]
		ToolRegistry registry = ToolRegistry.of(allTools);
		Agent agent = Agent.builder()
			.name("notes-agent")
			.model(model)
			.tools(registry, ToolScope.of("group:notes", "weather", "search_*"))
			.build();
		// end::registry[]
		assertThat(agent.name()).isEqualTo("notes-agent");
		assertThat(agent.tools()).extracting((spec) -> spec.name())
			.containsExactlyInAnyOrder("notes_search", "weather", "search_web");
		Agent guarded =
		// tag::permissions[]
		Agent.builder()
			.permissionPolicy(ToolPermissionRules.builder()
				.denyPermissions(ToolPermission.DESTRUCTIVE)
				.denyTools("admin_*")
				.build())
		// end::permissions[]
			.name("guarded")
			.model(model)
			.tools(allTools)
			.build();
		assertThat(guarded.tools()).hasSize(allTools.size());
	}

	@Test
	void springBootConfigurationStartsWithTheTypedToolBeanAndThePolicy() {
		SnippetContexts.yaml("tools/configuration.yml")
			.withUserConfiguration(ToolsConfiguration.class, ToolBeans.class)
			.withBean(Clock.class, Clock::systemUTC)
			.withBean("scripted", ChatModel.class, () -> this.model)
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(ToolPermissionPolicy.class);
				assertThat(context.getBean(ToolRegistry.class).names()).contains("forecast", "get_weather",
						"notes_search", "delete_draft");
				assertThat(context.getBean("assistant", Agent.class).tools())
					.extracting((spec) -> spec.name())
					.contains("get_weather", "notes_search");
			});
	}

	private static String spec(List<ToolCallback> tools, String name) {
		return tools.stream().filter((tool) -> tool.spec().name().equals(name)).findFirst().orElseThrow().spec()
			.inputSchema().toString();
	}

	/** The tools the page's yml names. */
	static class ToolBeans {

		@Bean
		dev.agcore.docs.support.DocsTools docsTools() {
			return new dev.agcore.docs.support.DocsTools();
		}

		@Bean
		NoteTools noteTools() {
			return new NoteTools();
		}

	}

	/** The tools the page's scope names, and one it leaves out. */
	static class ScopeTools {

		@dev.agcore.Tool(name = "weather", description = "Weather in a city", secrets = {})
		public String weather(String city) {
			return "Sunny in " + city;
		}

		@dev.agcore.Tool(name = "search_web", description = "Search the web", secrets = {})
		public String search(String query) {
			return "nothing about " + query;
		}

		@dev.agcore.Tool(name = "admin_reset", description = "Reset everything", permission = "destructive",
				secrets = {})
		public String reset() {
			return "reset";
		}

	}

	/** Tools of the notes group. */
	static class NoteTools {

		@dev.agcore.Tool(name = "notes_search", description = "Search the notes", category = "notes", secrets = {})
		public String search(String query) {
			return "no notes about " + query;
		}

		@dev.agcore.Tool(name = "delete_draft", description = "Delete a draft", permission = "destructive",
				secrets = {})
		public String delete(String id) {
			return "deleted " + id;
		}

	}

}
