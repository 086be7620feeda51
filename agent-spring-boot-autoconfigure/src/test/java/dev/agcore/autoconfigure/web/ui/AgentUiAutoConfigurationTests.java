package dev.agcore.autoconfigure.web.ui;

import java.util.function.Consumer;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.AgentSessionsAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.autoconfigure.web.AgentWebAutoConfiguration;
import dev.agcore.model.ChatModel;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.codec.autoconfigure.CodecsAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableReactiveWebApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.webflux.autoconfigure.HttpHandlerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AgentUiAutoConfiguration}: the page, its modules and the two WebJar
 * files, served through the application's WebFlux handler next to the agent routes.
 */
class AgentUiAutoConfigurationTests {

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(HttpHandlerAutoConfiguration.class, WebFluxAutoConfiguration.class,
				CodecsAutoConfiguration.class, ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentSessionsAutoConfiguration.class,
				AgentMetricsAutoConfiguration.class,
				AgentAutoConfiguration.class, AgentWebAutoConfiguration.class, AgentUiAutoConfiguration.class))
		.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.answering((request) -> ScriptedChatModel
			.text("Hello")))
		.withPropertyValues("agent.web.enabled=true", "agent.agents.assistant.provider=scripted");

	@Test
	void pageIsOffByDefault() {
		this.contextRunner.run(withClient((client) -> {
			assertThat(client.get().uri("/agents/ui/").exchange().returnResult().getStatus().value()).isEqualTo(404);
			client.get().uri("/agents").exchange().expectStatus().isOk();
		}));
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean("agentUiRouterFunction")
			.doesNotHaveBean(AgentUiProperties.class));
	}

	@Test
	void pageIsNotServedOutsideReactiveWebApplications() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(AgentUiAutoConfiguration.class))
			.withPropertyValues("agent.web.enabled=true", "agent.web.ui.enabled=true")
			.run((context) -> assertThat(context).doesNotHaveBean("agentUiRouterFunction"));
	}

	@Test
	void pageIsServedWhenEnabledWithAPolicyThatAllowsOnlyItsOwnScripts() {
		this.contextRunner.withPropertyValues("agent.web.ui.enabled=true").run(withClient((client) -> {
			client.get()
				.uri("/agents/ui")
				.exchange()
				.expectStatus()
				.isFound()
				.expectHeader()
				.location("/agents/ui/");
			client.get()
				.uri("/agents/ui/")
				.exchange()
				.expectStatus()
				.isOk()
				.expectHeader()
				.contentTypeCompatibleWith(MediaType.TEXT_HTML)
				.expectHeader()
				.valueEquals("Content-Security-Policy", AgentUiRoutes.CONTENT_SECURITY_POLICY)
				.expectHeader()
				.valueEquals("X-Content-Type-Options", "nosniff")
				.expectBody(String.class)
				.value((html) -> assertThat(html).contains("<script type=\"module\" src=\"app.js\"></script>")
					.contains("<label for=\"message\""));
		}));
	}

	@Test
	void modulesAndStylesAreServedWithTheirContentTypes() {
		this.contextRunner.withPropertyValues("agent.web.ui.enabled=true").run(withClient((client) -> {
			for (String module : new String[] { "app.js", "api.js", "sse.js", "dom.js", "markdown.js", "turn.js",
					"transcript.js" }) {
				client.get()
					.uri("/agents/ui/" + module)
					.exchange()
					.expectStatus()
					.isOk()
					.expectHeader()
					.contentTypeCompatibleWith(MediaType.parseMediaType("text/javascript"));
			}
			client.get()
				.uri("/agents/ui/chat.css")
				.exchange()
				.expectStatus()
				.isOk()
				.expectHeader()
				.contentTypeCompatibleWith(MediaType.parseMediaType("text/css"));
			client.get().uri("/agents/ui/missing.js").exchange().expectStatus().isNotFound();
		}));
	}

	@Test
	void markdownRendererAndSanitizerAreServedFromTheirWebJars() {
		this.contextRunner.withPropertyValues("agent.web.ui.enabled=true").run(withClient((client) -> {
			client.get()
				.uri("/agents/ui/vendor/marked.esm.js")
				.exchange()
				.expectStatus()
				.isOk()
				.expectHeader()
				.contentTypeCompatibleWith(MediaType.parseMediaType("text/javascript"))
				.expectBody(String.class)
				.value((script) -> assertThat(script).contains("as Marked"));
			client.get()
				.uri("/agents/ui/vendor/purify.es.mjs")
				.exchange()
				.expectStatus()
				.isOk()
				.expectHeader()
				.contentTypeCompatibleWith(MediaType.parseMediaType("text/javascript"))
				.expectBody(String.class)
				.value((script) -> assertThat(script).contains("export { purify as default }"));
			// nothing else of the WebJars: no directory of them is mapped
			client.get().uri("/agents/ui/vendor/package.json").exchange().expectStatus().isNotFound();
		}));
	}

	@Test
	void pageFollowsTheBasePath() {
		this.contextRunner.withPropertyValues("agent.web.ui.enabled=true", "agent.web.base-path=/ai/")
			.run(withClient((client) -> {
				client.get().uri("/ai/ui").exchange().expectStatus().isFound().expectHeader().location("/ai/ui/");
				client.get().uri("/ai/ui/").exchange().expectStatus().isOk();
				client.get().uri("/ai/ui/vendor/marked.esm.js").exchange().expectStatus().isOk();
				assertThat(client.get().uri("/agents/ui/").exchange().returnResult().getStatus().value())
					.isEqualTo(404);
			}));
	}

	@Test
	void agentRoutesStillAnswerBesideThePage() {
		this.contextRunner.withPropertyValues("agent.web.ui.enabled=true").run(withClient((client) -> {
			client.get()
				.uri("/agents")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$[0].name")
				.isEqualTo("assistant");
			client.get().uri("/agents/assistant/tools").exchange().expectStatus().isOk();
		}));
	}

	@Test
	void enablingThePageWithoutTheEndpointFailsNamingBothProperties() {
		this.contextRunner.withPropertyValues("agent.web.enabled=false", "agent.web.ui.enabled=true")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("agent.web.ui.enabled=true")
				.hasMessageContaining("the agent endpoint the page talks to is off"));
	}

	@Test
	void missingWebJarFailsNamingTheDependency() {
		this.contextRunner.withPropertyValues("agent.web.ui.enabled=true")
			.withClassLoader(new FilteredClassLoader(
					new ClassPathResource("META-INF/maven/org.webjars.npm/dompurify/pom.properties")))
			.run((context) -> {
				assertThat(context).getFailure()
					.rootCause()
					.isInstanceOf(AgentConfigurationException.class)
					.hasMessageContaining("org.webjars.npm:dompurify is not on the classpath");
				assertThat(((AgentConfigurationException) rootCause(context.getStartupFailure())).getAction())
					.contains("agent-spring-boot-starter");
			});
	}

	@Test
	void nativeImagesKeepThePageAndItsWebJarFiles() {
		RuntimeHints hints = new RuntimeHints();
		ClassLoader classLoader = getClass().getClassLoader();
		new AgentUiRuntimeHints().registerHints(hints, classLoader);
		String marked = ((ClassPathResource) AgentUiRoutes.webJarFile("marked", "lib/marked.esm.js", classLoader))
			.getPath();
		String purify = ((ClassPathResource) AgentUiRoutes.webJarFile("dompurify", "dist/purify.es.mjs", classLoader))
			.getPath();
		for (String file : new String[] { AgentUiRoutes.ASSETS + "index.html", AgentUiRoutes.ASSETS + "app.js",
				"META-INF/maven/org.webjars.npm/dompurify/pom.properties", marked, purify }) {
			assertThat(RuntimeHintsPredicates.resource().forResource(file)).as(file).accepts(hints);
		}
	}

	private static Throwable rootCause(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

	private static ContextConsumer<AssertableReactiveWebApplicationContext> withClient(Consumer<WebTestClient> test) {
		return (context) -> {
			assertThat(context).hasNotFailed();
			test.accept(WebTestClient.bindToApplicationContext(context).build());
		};
	}

}
