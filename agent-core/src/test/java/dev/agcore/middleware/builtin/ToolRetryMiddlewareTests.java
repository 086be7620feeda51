package dev.agcore.middleware.builtin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.ToolCallHandler;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.ToolExecution;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolCallback;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class ToolRetryMiddlewareTests {

	private final AtomicInteger attempts = new AtomicInteger();

	@Test
	void retriesAMatchingFailureUntilTheToolSucceeds() {
		ToolCallback flaky = BuiltinTestTools.tool("flaky", (args, ctx) -> {
			if (this.attempts.incrementAndGet() < 3) {
				throw new IllegalStateException("disk busy");
			}
			return "saved";
		});
		ScriptedChatModel model = model("flaky");

		AgentResult result = agent(model, flaky, retry().retryOn(IllegalStateException.class)).call("s", "save");

		assertThat(this.attempts).hasValue(3);
		assertThat(result.toolExecutions()).singleElement().satisfies((execution) -> {
			assertThat(execution.result()).isEqualTo("saved");
			assertThat(execution.error()).isFalse();
		});
		assertThat(model.requests().get(1).messages()).last().extracting(Message::text)
			.isEqualTo("saved");
	}

	@Test
	void doesNotRetryAFailureThePredicateRejects() {
		ToolCallback broken = failing("broken", () -> new IllegalArgumentException("bad id"));

		AgentResult result = agent(model("broken"), broken, retry().retryOn(IllegalStateException.class)).call("s",
				"go");

		assertThat(this.attempts).hasValue(1);
		assertThat(result.toolExecutions()).extracting(ToolExecution::result)
			.containsExactly("Error: tool 'broken' failed: IllegalArgumentException: bad id");
	}

	@Test
	void givesUpAfterMaxAttemptsAndTellsTheModel() {
		ToolCallback broken = failing("broken", () -> new IllegalStateException("disk full"));

		AgentResult result = agent(model("broken"), broken, retry().maxAttempts(3)).call("s", "go");

		assertThat(this.attempts).hasValue(3);
		assertThat(result.toolExecutions()).extracting(ToolExecution::result)
			.containsExactly("Error: tool 'broken' failed: IllegalStateException: disk full (gave up after 3 attempts)");
	}

	@Test
	void neverRetriesInvalidArgumentsOrUnknownToolsByDefault() {
		ToolCallback strict = failing("strict", () -> new ToolArgumentsException("Missing required parameter 'id'"));
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "strict", "{}"), new ToolCall("c2", "nope", "{}")), text("ok"));

		AgentResult result = agent(model, strict, retry()).call("s", "go");

		assertThat(this.attempts).hasValue(1);
		assertThat(result.toolExecutions()).extracting(ToolExecution::error).containsExactly(true, true);
		assertThat(result.toolExecutions()).extracting(ToolExecution::result)
			.noneMatch((text) -> text.contains("gave up"));
	}

	@Test
	void neverRetriesATimedOutCallByDefault() {
		ToolCallback slow = BuiltinTestTools.tool("slow", (args, ctx) -> {
			this.attempts.incrementAndGet();
			Thread.sleep(2_000);
			return "late";
		});
		Agent agent = Agent.builder()
			.name("retrying")
			.model(model("slow"))
			.tool(slow)
			.toolTimeout(Duration.ofMillis(50))
			.middleware(retry().build())
			.build();

		AgentResult result = agent.call("s", "go");

		assertThat(this.attempts).hasValue(1);
		assertThat(result.toolExecutions()).singleElement().satisfies((execution) -> {
			assertThat(execution.error()).isTrue();
			assertThat(execution.result()).doesNotContain("gave up");
		});
	}

	@Test
	void neverRetriesACallAPersonApprovedUnlessAskedTo() {
		ToolCall call = new ToolCall("c1", "refund", "{}");
		ToolCallHandler failingHandler = (toolCall) -> {
			this.attempts.incrementAndGet();
			return Mono.just(new ToolResultMessage("c1", "refund", "Error: tool 'refund' failed", true));
		};
		AgentContext approved = approvedContext(new IllegalStateException("gateway down"));

		retry().build().wrapToolCall(approved, call, failingHandler).block(Duration.ofSeconds(5));
		assertThat(this.attempts).hasValue(1);

		this.attempts.set(0);
		retry().retryApproved(true).build().wrapToolCall(approved, call, failingHandler).block(Duration.ofSeconds(5));
		assertThat(this.attempts).hasValue(3);
	}

	private static AgentContext approvedContext(Throwable failure) {
		return new AgentContext() {

			@Override
			public String agentName() {
				return "retrying";
			}

			@Override
			public String sessionId() {
				return "s";
			}

			@Override
			public Map<String, Object> state() {
				return Map.of();
			}

			@Override
			public int modelCalls() {
				return 1;
			}

			@Override
			public Map<String, Object> attributes() {
				return new java.util.HashMap<>();
			}

			@Override
			public boolean isApproved(String toolCallId) {
				return true;
			}

			@Override
			public Throwable toolFailure(String toolCallId) {
				return failure;
			}

		};
	}

	@Test
	void retriesOnlyTheListedTools() {
		ToolCallback broken = failing("broken", () -> new IllegalStateException("disk full"));

		agent(model("broken"), broken, retry().tools("other")).call("s", "go");

		assertThat(this.attempts).hasValue(1);
	}

	@Test
	void predicateSeesTheCauseWhenTheRuntimeReportsItAndMatchesSubtypes() {
		ToolCall call = new ToolCall("c1", "fetch", "{}");
		ToolResultMessage failure = ToolResultMessage.failure(call, "Error: tool 'fetch' failed: something");
		AgentContext context = BuiltinTestTools.context("s",
				Map.of("c1", new UncheckedIOException(new SocketTimeoutException("read timed out"))));
		ToolRetryMiddleware retry = retry().retryOn(IOException.class).build();

		Mono<ToolResultMessage> result = retry.wrapToolCall(context, call, (c) -> Mono.fromSupplier(
				() -> (this.attempts.incrementAndGet() < 2) ? failure : ToolResultMessage.success(c, "fetched")));

		StepVerifier.create(result)
			.assertNext((message) -> assertThat(message.text()).isEqualTo("fetched"))
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(this.attempts).hasValue(2);
	}

	@Test
	void waitsWithExponentialBackoffWithoutBlocking() {
		ToolCall call = new ToolCall("c1", "fetch", "{}");
		ToolResultMessage failure = ToolResultMessage.failure(call, "Error: tool 'fetch' failed: IOException: reset");
		ToolRetryMiddleware retry = ToolRetryMiddleware.builder()
			.maxAttempts(3)
			.initialBackoff(Duration.ofSeconds(1))
			.multiplier(3)
			.build();

		StepVerifier
			.withVirtualTime(() -> retry.wrapToolCall(BuiltinTestTools.context("s", Map.of("c1", new IOException("reset"))), call, (c) -> Mono
				.fromSupplier(() -> (this.attempts.incrementAndGet() < 3) ? failure : ToolResultMessage.success(c, "ok"))))
			.expectSubscription()
			.expectNoEvent(Duration.ofSeconds(1))
			.then(() -> assertThat(this.attempts).hasValue(2))
			.expectNoEvent(Duration.ofSeconds(3))
			.assertNext((message) -> assertThat(message.text()).isEqualTo("ok"))
			.expectComplete()
			.verify(Duration.ofSeconds(5));
	}

	@Test
	void backoffGrowsByTheMultiplierUpToTheMaximum() {
		ToolRetryMiddleware retry = ToolRetryMiddleware.builder()
			.initialBackoff(Duration.ofMillis(100))
			.multiplier(2)
			.maxBackoff(Duration.ofMillis(300))
			.build();

		assertThat(retry.backoff(1)).isEqualTo(Duration.ofMillis(100));
		assertThat(retry.backoff(2)).isEqualTo(Duration.ofMillis(200));
		assertThat(retry.backoff(3)).isEqualTo(Duration.ofMillis(300));
	}

	@Test
	void subclassOfAListedExceptionThrownInTheLoopIsRetried() {
		AtomicInteger calls = new AtomicInteger();
		ToolCallback flaky = BuiltinTestTools.tool("read", (args, ctx) -> {
			if (calls.incrementAndGet() < 2) {
				throw new java.io.FileNotFoundException("not yet");
			}
			return "content";
		});

		AgentResult result = agent(model("read"), flaky, retry().retryOn(IOException.class)).call("s", "read");

		assertThat(calls).hasValue(2);
		assertThat(result.toolExecutions()).singleElement()
			.satisfies((execution) -> assertThat(execution.result()).isEqualTo("content"));
	}

	@Test
	void failureWithoutAnExceptionHasNoCause() {
		ToolCall call = new ToolCall("c1", "fetch", "{}");
		ToolFailure refused = new ToolFailure(call,
				ToolResultMessage.failure(call, "Error: tool call limit reached (3 per turn)"), null, 1);

		assertThat(refused.exceptionName()).isNull();
		assertThat(refused.isCausedBy(Exception.class)).isFalse();
	}

	@Test
	void builderRejectsInvalidSettingsNamingTheField() {
		assertThatIllegalArgumentException().isThrownBy(() -> ToolRetryMiddleware.builder().maxAttempts(0))
			.withMessage("'maxAttempts' must be at least 1, was 0");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ToolRetryMiddleware.builder().initialBackoff(Duration.ZERO))
			.withMessage("'initialBackoff' must be positive, was PT0S");
		assertThatIllegalArgumentException().isThrownBy(() -> ToolRetryMiddleware.builder().multiplier(0.5))
			.withMessage("'multiplier' must be at least 1.0, was 0.5");
		assertThatIllegalArgumentException().isThrownBy(() -> ToolRetryMiddleware.builder().jitter(1))
			.withMessage("'jitter' must be in [0, 1), was 1.0");
		assertThatIllegalStateException().isThrownBy(() -> ToolRetryMiddleware.builder()
			.initialBackoff(Duration.ofSeconds(20))
			.maxBackoff(Duration.ofSeconds(10))
			.build()).withMessageContaining("'initialBackoff'");
	}

	private ToolRetryMiddleware.Builder retry() {
		return ToolRetryMiddleware.builder().initialBackoff(Duration.ofMillis(5)).maxBackoff(Duration.ofMillis(20));
	}

	private ToolCallback failing(String name, Supplier<Exception> exception) {
		return BuiltinTestTools.tool(name, (args, ctx) -> {
			this.attempts.incrementAndGet();
			throw exception.get();
		});
	}

	private static ScriptedChatModel model(String tool) {
		return ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", tool, "{}")), text("done"));
	}

	private static Agent agent(ScriptedChatModel model, ToolCallback tool, ToolRetryMiddleware.Builder retry) {
		return Agent.builder().name("retrying").model(model).tool(tool).middleware(retry.build()).build();
	}

}
