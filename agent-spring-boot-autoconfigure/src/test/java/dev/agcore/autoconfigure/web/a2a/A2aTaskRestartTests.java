package dev.agcore.autoconfigure.web.a2a;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;

import dev.agcore.AgentPrincipal;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareTestTools;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.autoconfigure.web.PrincipalResolver;
import dev.agcore.model.ChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;

import static dev.agcore.autoconfigure.web.a2a.A2aServerAutoConfigurationTests.message;
import static dev.agcore.autoconfigure.web.a2a.A2aServerAutoConfigurationTests.rpc;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A2A tasks outlive the application: on the JDBC stores (a file H2 database), a second
 * application context reads the first one's tasks, keeps their owners, and resumes a
 * task the first left waiting for approval.
 */
class A2aTaskRestartTests {

	@TempDir
	Path directory;

	private ReactiveWebApplicationContextRunner contextRunner() {
		return new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JdbcMemoryAutoConfiguration.class,
					ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
					ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
					MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class, A2aServerAutoConfiguration.class))
			.withBean("tools", MiddlewareTestTools.class)
			.withBean("scripted", ChatModel.class, A2aTestModels::scripted)
			.withBean(PrincipalResolver.class, () -> (exchange) -> Mono
				.justOrEmpty(exchange.getRequest().getHeaders().getFirst("X-User"))
				.map(AgentPrincipal::of))
			.withPropertyValues("agent.memory.store=jdbc", "agent.memory.jdbc.initialize-schema=always",
					"spring.datasource.url=jdbc:h2:file:" + this.directory.resolve("agents").toAbsolutePath(),
					"agent.untrusted-content.enabled=false", "agent.web.a2a.enabled=true",
					"agent.agents.assistant.model=scripted", "agent.agents.assistant.tools=get_weather,delete_file",
					"agent.agents.assistant.middleware.human-in-the-loop.tools.delete_file=Deleting cannot be undone");
	}

	@Test
	void tasksAndTheirOwnersSurviveARestartAndAPausedTaskResumesInTheNextContext() {
		JsonNode[] first = new JsonNode[2];
		run((client) -> {
			first[0] = rpc(client, "alice", "message/send", message("Weather in Lima", null, null)).path("result");
			first[1] = rpc(client, "alice", "message/send", message("Delete /tmp/a", null, null)).path("result");
			assertThat(first[1].path("status").path("state").asString()).isEqualTo("input-required");
			return null;
		});
		run((client) -> {
			String completed = "{\"id\": \"" + first[0].path("id").asString() + "\"}";
			JsonNode read = rpc(client, "alice", "tasks/get", completed).path("result");
			assertThat(read.path("status").path("state").asString()).isEqualTo("completed");
			assertThat(read.path("contextId").asString()).isEqualTo(first[0].path("contextId").asString());
			assertThat(read.path("artifacts").get(0).path("parts").get(0).path("text").asString())
				.isEqualTo("Done: Sunny in Lima");
			assertThat(rpc(client, "bob", "tasks/get", completed).path("error").path("code").asInt()).isEqualTo(-32001);

			String pausedId = first[1].path("id").asString();
			assertThat(rpc(client, "alice", "tasks/get", "{\"id\": \"" + pausedId + "\"}").path("result")
				.path("status").path("state").asString()).isEqualTo("input-required");
			JsonNode done = rpc(client, "alice", "message/send", message("approve", null, pausedId)).path("result");
			assertThat(done.path("status").path("state").asString()).isEqualTo("completed");
			assertThat(done.path("artifacts").get(0).path("parts").get(0).path("text").asString())
				.isEqualTo("Done: Deleted /tmp/a");
			return null;
		});
	}

	private void run(Function<WebTestClient, Void> test) {
		contextRunner().run((context) -> {
			assertThat(context).hasNotFailed();
			RouterFunction<?> router = context.getBean("agentA2aRouterFunction", RouterFunction.class);
			// the first turn on a fresh database of a loaded machine may take seconds
			test.apply(WebTestClient.bindToRouterFunction(router)
				.configureClient()
				.responseTimeout(Duration.ofSeconds(30))
				.build());
		});
	}

}
