package dev.agcore.docs.middleware;

import java.time.Duration;
import java.util.List;

import dev.agcore.Tool;
import dev.agcore.docs.middleware.AuditMiddleware.AuditLog;
import dev.agcore.docs.support.SnippetContexts;
import dev.agcore.message.ToolCall;
import dev.agcore.middleware.builtin.ModelCallLimitMiddleware;
import dev.agcore.middleware.builtin.PiiRedactionMiddleware;
import dev.agcore.middleware.builtin.ToolRetryMiddleware;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.method.MethodTools;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The snippets of docs/middleware.md, built and run with scripted models.
 */
class MiddlewareTests {

	private final ScriptedChatModel model = ScriptedChatModel.answering(MiddlewareTests::answer);

	private final List<ToolCallback> tools = MethodTools.from(new FileTools());

	@Test
	void supportAgentWithThreeMiddlewareAnswers() {
		Agent agent = MiddlewareSnippets.support(this.model, this.tools);
		assertThat(agent.call("s1", "Hello").output()).isEqualTo("Hello to you");
	}

	@Test
	void everyBuiltInMiddlewareBuildsIntoOneAgent() {
		ChatModel cheap = ScriptedChatModel.answering((request) -> ScriptedChatModel.text("summary"));
		Agent agent = MiddlewareSnippets
			.builtIns(Agent.builder().name("all").model(this.model).tools(this.tools), new SimpleMeterRegistry(),
					this.model, cheap, cheap)
			.build();
		assertThat(agent.call("s1", "Hello").output()).isEqualTo("Hello to you");
	}

	@Test
	void approvalPausesTheTurnAndResumeRunsTheTool() {
		FileTools files = new FileTools();
		Agent agent = MiddlewareSnippets
			.approval(Agent.builder().name("files").model(this.model).tools(MethodTools.from(files)))
			.build();
		AgentResult[] results = MiddlewareSnippets.approve(agent);
		assertThat(results[0].isInterrupted()).isTrue();
		assertThat(results[1].isCompleted()).isTrue();
		assertThat(results[1].output()).isEqualTo("a.txt is deleted");
		assertThat(files.deleted).containsExactly("a.txt");
	}

	@Test
	void observedMiddlewareRuns() {
		Agent agent = MiddlewareSnippets.observed(Agent.builder().name("observed").model(this.model),
				new SimpleMeterRegistry(), PiiRedactionMiddleware.builder().build(),
				ModelCallLimitMiddleware.builder().perTurn(8).build(), ToolRetryMiddleware.builder().build())
			.build();
		assertThat(agent.call("s1", "Hello").output()).isEqualTo("Hello to you");
	}

	@Test
	void policyPromptAddsThePolicyFetchedWithoutBlocking() {
		WebClient policies = WebClient.builder()
			.exchangeFunction((request) -> Mono.just(ClientResponse.create(HttpStatus.OK)
				.header("Content-Type", "text/plain")
				.body("Never promise refunds")
				.build()))
			.build();
		Agent agent = Agent.builder().name("policy").model(this.model).middleware(new PolicyPrompt(policies)).build();
		agent.call("s1", "Hello");
		assertThat(this.model.requests().get(0).messages().toString()).contains("Never promise refunds");
	}

	@Test
	void middlewareBeansAreUsedByName() {
		SnippetContexts.yaml("middleware/use.yml")
			.withUserConfiguration(MiddlewareConfiguration.class, TodayPrompt.class)
			.withBean("scripted", ChatModel.class, () -> this.model)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				context.getBean("support", Agent.class).call("s1", "Hello");
				assertThat(context.getBean(AuditLog.class).entries()).containsExactly("s1");
				assertThat(this.model.requests().get(0).messages().toString()).contains("coffee shop");
			});
	}

	@Test
	void everyBuiltInStartsFromYml() {
		SnippetContexts.yaml("middleware/builtins.yml")
			.withBean("main", ChatModel.class, () -> this.model)
			.withBean("backup", ChatModel.class, () -> this.model)
			.withBean("cheap", ChatModel.class, () -> this.model)
			.withBean(FileTools.class, FileTools::new)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean("assistant", Agent.class).call("s1", "Hello").output())
					.isEqualTo("Hello to you");
			});
	}

	@Test
	void traceableServiceAnswers() {
		assertThat(new QuoteService().quote("ACME", "secret").block(Duration.ofSeconds(5)).symbol()).isEqualTo("ACME");
	}

	private static ChatResponse answer(ChatRequest request) {
		String conversation = request.messages().toString();
		if (conversation.contains("deleted a.txt")) {
			return ScriptedChatModel.text("a.txt is deleted");
		}
		if (conversation.contains("delete a.txt")) {
			return ScriptedChatModel.toolCalls(new ToolCall("call-1", "delete_file", "{\"path\":\"a.txt\"}"));
		}
		return ScriptedChatModel.text("Hello to you");
	}

	/** The tools the page's agents name. */
	static class FileTools {

		final List<String> deleted = new java.util.concurrent.CopyOnWriteArrayList<>();

		@Tool(name = "delete_file", description = "Delete a file", permission = "destructive", secrets = {})
		public String delete(String path) {
			this.deleted.add(path);
			return "deleted " + path;
		}

		@Tool(name = "send_email", description = "Send an email", secrets = {})
		public String send(String to, String text) {
			return "sent to " + to;
		}

		@Tool(name = "search", description = "Search", secrets = {})
		public String search(String query) {
			return "nothing about " + query;
		}

	}

}
