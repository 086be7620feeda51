package dev.agcore.docs.middleware;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.approval.HumanInTheLoopMiddleware;
import dev.agcore.middleware.builtin.ContextEditingMiddleware;
import dev.agcore.middleware.builtin.ExitBehavior;
import dev.agcore.middleware.builtin.ModelCallLimitMiddleware;
import dev.agcore.middleware.builtin.ModelFallbackMiddleware;
import dev.agcore.middleware.builtin.ObservedMiddleware;
import dev.agcore.middleware.builtin.PiiRedactionMiddleware;
import dev.agcore.middleware.builtin.PiiType;
import dev.agcore.middleware.builtin.SummarizationMiddleware;
import dev.agcore.middleware.builtin.TodoListMiddleware;
import dev.agcore.middleware.builtin.ToolCallLimitMiddleware;
import dev.agcore.middleware.builtin.ToolRetryMiddleware;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ContextLengthExceededException;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentBuilder;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.ResumeRequest;
import dev.agcore.runtime.ToolDecision;
import dev.agcore.tool.ToolCallback;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The builder snippets of docs/middleware.md; {@code agent} is an {@link AgentBuilder},
 * as on the page. {@code MiddlewareTests} builds and runs the agents.
 */
class MiddlewareSnippets {

	static Agent support(ChatModel model, List<ToolCallback> tools) {
		// tag::builder[]
		Agent agent = Agent.builder()
			.name("support")
			.model(model)
			.tools(tools)
			.middleware(PiiRedactionMiddleware.builder().build())
			.middleware(ModelCallLimitMiddleware.builder().perTurn(8).build())
			.middleware(ToolRetryMiddleware.builder().maxAttempts(3).build())
			.build();
		// end::builder[]
		return agent;
	}

	static AgentBuilder builtIns(AgentBuilder agent, MeterRegistry meterRegistry, ChatModel mainModel,
			ChatModel backupModel, ChatModel cheapModel) {
		// tag::model-call-limit[]
		agent.middleware(ModelCallLimitMiddleware.builder()
			.perTurn(8)
			.perSession(200)
			.exitBehavior(ExitBehavior.END)
			.meterRegistry(meterRegistry)
			.build());
		// end::model-call-limit[]
		// tag::tool-call-limit[]
		agent.middleware(ToolCallLimitMiddleware.builder()
			.perTurn(20)
			.perTool("web_search", 3)
			.exitBehavior(ExitBehavior.ERROR_TO_MODEL)
			.build());
		// end::tool-call-limit[]
		// tag::tool-retry[]
		agent.middleware(ToolRetryMiddleware.builder()
			.maxAttempts(3)                          // attempts in total, the first included
			.initialBackoff(Duration.ofMillis(500))
			.multiplier(2)
			.maxBackoff(Duration.ofSeconds(10))
			.jitter(0.2)
			.tools("fetch_page", "query_db")        // default: every tool
			.retryOn(IOException.class, TimeoutException.class)
			.build());
		// end::tool-retry[]
		// tag::model-fallback[]
		agent.middleware(ModelFallbackMiddleware.builder(backupModel, cheapModel)
			.primary(mainModel)                              // only labels the metric
			.fallbackOn(ContextLengthExceededException.class) // besides retryable failures
			.meterRegistry(meterRegistry)
			.build());
		// end::model-fallback[]
		// tag::summarization[]
		agent.middleware(SummarizationMiddleware.builder(cheapModel)
			.triggerTokens(60_000)   // summarize requests estimated above this
			.keepMessages(12)        // always keep the latest messages as they are
			.prompt(SummarizationMiddleware.DEFAULT_PROMPT)
			.build());
		// end::summarization[]
		// tag::context-editing[]
		agent.middleware(ContextEditingMiddleware.builder()
			.triggerTokens(50_000)
			.keepToolResults(3)
			.excludeTools("read_policy")
			.placeholder("[tool result cleared to save context]")
			.build());
		// end::context-editing[]
		// tag::pii[]
		agent.middleware(PiiRedactionMiddleware.builder()
			.redact(PiiType.EMAIL, PiiType.PHONE)
			.mask(PiiType.CREDIT_CARD)
			.block(PiiType.API_KEY)
			.toolResults(true)
			.build());
		// end::pii[]
		// tag::todo[]
		agent.middleware(new TodoListMiddleware());
		// end::todo[]
		return agent;
	}

	static AgentBuilder approval(AgentBuilder agent) {
		// tag::approval[]
		agent.middleware(new HumanInTheLoopMiddleware(Map.of("delete_file", "deletes data")));
		// end::approval[]
		return agent;
	}

	static AgentResult[] approve(Agent agent) {
		// tag::resume[]
		AgentResult paused = agent.call("s1", "delete a.txt");          // status INTERRUPTED
		AgentResult done = agent.resume(ResumeRequest.of("s1", Map.of(
				paused.pendingToolCalls().get(0).id(), ToolDecision.approve())))   // or edit(json) / reject(reason)
			.block();
		// end::resume[]
		return new AgentResult[] { paused, done };
	}

	static AgentBuilder observed(AgentBuilder agent, MeterRegistry meterRegistry, AgentMiddleware pii,
			AgentMiddleware limits, AgentMiddleware retry) {
		// tag::observed[]
		agent.middleware(ObservedMiddleware.observe(List.of(pii, limits, retry), meterRegistry));
		// end::observed[]
		return agent;
	}

}
