package dev.agcore.runtime;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.middleware.ModelCall;
import dev.agcore.middleware.ToolCallHandler;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.Usage;
import dev.agcore.observation.ContentCapture;
import dev.agcore.support.LogSafe;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;
import reactor.core.publisher.Mono;

/**
 * The log of one turn, kept in its {@link TurnScope}: counts its model and tool
 * calls as they happen, logs each at DEBUG ({@value #MODEL_LOGGER},
 * {@value #TOOL_LOGGER}), and when the turn ends logs one INFO line
 * ({@value #TURNS_LOGGER}) and tells the agent's {@link TurnSummaryListener}s. Nothing is
 * created for a turn when those loggers are off and there is no listener. Content
 * (prompts, answers, tool arguments and results) is logged only when content capture is
 * on, and then cut to {@value #MAX_CONTENT} characters.
 */
final class TurnLog {

	/** The logger of the line per finished turn. */
	static final String TURNS_LOGGER = "dev.agcore.turns";

	/** The logger of the line per model call. */
	static final String MODEL_LOGGER = "dev.agcore.turns.model";

	/** The logger of the line per tool call. */
	static final String TOOL_LOGGER = "dev.agcore.turns.tool";

	static final int MAX_CONTENT = 2_000;

	private static final Logger turns = LoggerFactory.getLogger(TURNS_LOGGER);

	private static final Logger models = LoggerFactory.getLogger(MODEL_LOGGER);

	private static final Logger tools = LoggerFactory.getLogger(TOOL_LOGGER);

	private final String agent;

	private final String sessionId;

	private final ContentCapture capture;

	private final TurnSummaryListener listener;

	private final long start = System.nanoTime();

	private final AtomicInteger modelCalls = new AtomicInteger();

	private final AtomicInteger toolCalls = new AtomicInteger();

	private final AtomicReference<Usage> usage = new AtomicReference<>(Usage.EMPTY);

	private final AtomicBoolean finished = new AtomicBoolean();

	private TurnLog(String agent, String sessionId, ContentCapture capture, TurnSummaryListener listener) {
		this.agent = agent;
		this.sessionId = sessionId;
		this.capture = capture;
		this.listener = listener;
	}

	/**
	 * Start the log of a turn, unless nothing would read what it keeps.
	 * @return the log, or null when the loggers are off and there is no listener
	 */
	static @Nullable TurnLog start(String agent, String sessionId, ContentCapture capture,
			@Nullable TurnSummaryListener listener) {
		if (listener == null && !turns.isInfoEnabled() && !models.isDebugEnabled() && !tools.isDebugEnabled()) {
			return null;
		}
		return new TurnLog(agent, sessionId, capture, (listener != null) ? listener : (summary) -> {
		});
	}

	/** The turn ended with a result. */
	void completed(AgentResult result, @Nullable BigDecimal cost) {
		finish(TurnSummary.Outcome.of(result.status()), null, result.usage(), cost);
	}

	/** The turn failed. */
	void failed(Throwable ex, @Nullable BigDecimal cost) {
		finish(TurnSummary.Outcome.FAILED, code(ex), this.usage.get(), cost);
	}

	/** The caller cancelled the turn. */
	void cancelled(@Nullable BigDecimal cost) {
		finish(TurnSummary.Outcome.CANCELLED, null, this.usage.get(), cost);
	}

	/** The innermost model call of a turn, logged when the turn has a log. */
	static ModelCall models(@Nullable TurnLog log, ChatModel model, ModelCall call) {
		return (log != null) ? (request) -> log.model(model, request, call.call(request)) : call;
	}

	/** The innermost tool call of a turn, logged when the turn has a log. */
	static ToolCallHandler tools(@Nullable TurnLog log, ToolCallHandler handler) {
		return (log != null) ? (call) -> log.tool(call, handler.call(call)) : handler;
	}

	private Mono<ChatResponse> model(ChatModel model, ChatRequest request, Mono<ChatResponse> call) {
		long start = System.nanoTime();
		return Ending.watch(call, new Ending.Listener<>() {

			@Override
			public void succeeded(@Nullable ChatResponse response) {
				TurnLog.this.modelCalls.incrementAndGet();
				if (response != null) {
					TurnLog.this.usage.accumulateAndGet(response.usage(), Usage::plus);
				}
				if (models.isDebugEnabled()) {
					logModel(model, request, response, null, start);
				}
			}

			@Override
			public void failed(Throwable ex) {
				TurnLog.this.modelCalls.incrementAndGet();
				if (models.isDebugEnabled()) {
					logModel(model, request, null, ex, start);
				}
			}

			@Override
			public void cancelled() {
			}

		});
	}

	private void logModel(ChatModel model, ChatRequest request, @Nullable ChatResponse response,
			@Nullable Throwable error, long start) {
		String requestModel = (request.options().model() != null) ? request.options().model() : model.modelName();
		LoggingEventBuilder event = models.atDebug()
			.addKeyValue("agent", LogSafe.text(this.agent))
			.addKeyValue("session", LogSafe.text(this.sessionId))
			.addKeyValue("provider", LogSafe.text(model.providerName()))
			.addKeyValue("model", LogSafe.text(requestModel))
			.addKeyValue("messages", request.messages().size())
			.addKeyValue("tools", request.tools().size());
		StringBuilder line = new StringBuilder("Model call: agent=").append(LogSafe.text(this.agent))
			.append(" session=")
			.append(LogSafe.text(this.sessionId))
			.append(" provider=")
			.append(LogSafe.text(model.providerName()))
			.append(" model=")
			.append(LogSafe.text(requestModel))
			.append(" messages=")
			.append(request.messages().size())
			.append(" tools=")
			.append(request.tools().size());
		if (response != null) {
			String finish = response.finishReason().name().toLowerCase(java.util.Locale.ROOT);
			Usage usage = response.usage();
			event.addKeyValue("finish_reason", finish)
				.addKeyValue("input_tokens", usage.inputTokens())
				.addKeyValue("output_tokens", usage.outputTokens())
				.addKeyValue("tool_calls", response.message().toolCalls().size());
			line.append(" finish_reason=")
				.append(finish)
				.append(" input_tokens=")
				.append(usage.inputTokens())
				.append(" output_tokens=")
				.append(usage.outputTokens())
				.append(" tool_calls=")
				.append(response.message().toolCalls().size());
		}
		else if (error != null) {
			event.addKeyValue("error", error.getClass().getSimpleName());
			line.append(" error=").append(error.getClass().getSimpleName());
		}
		long millis = millisSince(start);
		event.addKeyValue("duration_ms", millis);
		line.append(" duration_ms=").append(millis);
		if (this.capture.enabled()) {
			List<Message> messages = request.messages();
			String last = messages.isEmpty() ? "" : messages.get(messages.size() - 1).text();
			line.append(" request=").append(quoted(this.capture.clean(last)));
			if (response != null) {
				line.append(" response=").append(quoted(this.capture.clean(response.message().text())));
			}
		}
		event.log(line.toString());
	}

	private Mono<ToolResultMessage> tool(ToolCall call, Mono<ToolResultMessage> run) {
		long start = System.nanoTime();
		return Ending.watch(run, new Ending.Listener<>() {

			@Override
			public void succeeded(@Nullable ToolResultMessage result) {
				TurnLog.this.toolCalls.incrementAndGet();
				if (tools.isDebugEnabled()) {
					logTool(call, result, (result == null) || result.error(), start);
				}
			}

			@Override
			public void failed(Throwable ex) {
				TurnLog.this.toolCalls.incrementAndGet();
				if (tools.isDebugEnabled()) {
					logTool(call, null, true, start);
				}
			}

			@Override
			public void cancelled() {
			}

		});
	}

	private void logTool(ToolCall call, @Nullable ToolResultMessage result, boolean error, long start) {
		long millis = millisSince(start);
		StringBuilder line = new StringBuilder("Tool call: agent=").append(LogSafe.text(this.agent))
			.append(" session=")
			.append(LogSafe.text(this.sessionId))
			.append(" tool=")
			.append(LogSafe.text(call.name()))
			.append(" error=")
			.append(error)
			.append(" duration_ms=")
			.append(millis);
		if (this.capture.enabled()) {
			line.append(" arguments=").append(quoted(this.capture.clean(call.arguments())));
			if (result != null) {
				line.append(" result=").append(quoted(this.capture.clean(result.text())));
			}
		}
		tools.atDebug()
			.addKeyValue("agent", LogSafe.text(this.agent))
			.addKeyValue("session", LogSafe.text(this.sessionId))
			.addKeyValue("tool", LogSafe.text(call.name()))
			.addKeyValue("error", error)
			.addKeyValue("duration_ms", millis)
			.log(line.toString());
	}

	private void finish(TurnSummary.Outcome outcome, @Nullable String failureCode, Usage usage,
			@Nullable BigDecimal cost) {
		if (!this.finished.compareAndSet(false, true)) {
			return;
		}
		TurnSummary summary = new TurnSummary(this.agent, this.sessionId, outcome, failureCode,
				this.modelCalls.get(), this.toolCalls.get(), usage, cost, Duration.ofNanos(System.nanoTime() - this.start));
		if (turns.isInfoEnabled()) {
			log(summary);
		}
		try {
			this.listener.onTurnFinished(summary);
		}
		catch (RuntimeException ex) {
			turns.warn("A turn summary listener of agent '{}' failed", LogSafe.text(this.agent), LogSafe.throwable(ex));
		}
	}

	private static void log(TurnSummary summary) {
		String outcome = summary.outcome().value();
		long millis = summary.duration().toMillis();
		StringBuilder line = new StringBuilder("Turn ").append(outcome)
			.append(": agent=")
			.append(LogSafe.text(summary.agent()))
			.append(" session=")
			.append(LogSafe.text(summary.sessionId()))
			.append(" outcome=")
			.append(outcome);
		LoggingEventBuilder event = turns.atInfo()
			.addKeyValue("agent", LogSafe.text(summary.agent()))
			.addKeyValue("session", LogSafe.text(summary.sessionId()))
			.addKeyValue("outcome", outcome);
		if (summary.failureCode() != null) {
			line.append(" error=").append(summary.failureCode());
			event.addKeyValue("error", summary.failureCode());
		}
		line.append(" model_calls=")
			.append(summary.modelCalls())
			.append(" tool_calls=")
			.append(summary.toolCalls())
			.append(" input_tokens=")
			.append(summary.usage().inputTokens())
			.append(" output_tokens=")
			.append(summary.usage().outputTokens());
		event.addKeyValue("model_calls", summary.modelCalls())
			.addKeyValue("tool_calls", summary.toolCalls())
			.addKeyValue("input_tokens", summary.usage().inputTokens())
			.addKeyValue("output_tokens", summary.usage().outputTokens());
		if (summary.cost() != null) {
			line.append(" cost=").append(summary.cost().toPlainString());
			event.addKeyValue("cost", summary.cost());
		}
		line.append(" duration_ms=").append(millis);
		event.addKeyValue("duration_ms", millis).log(line.toString());
	}

	private static String code(Throwable ex) {
		TurnFailure failure = TurnFailure.of(ex);
		return (failure != null) ? failure.code() : TurnSummary.INTERNAL;
	}

	private static long millisSince(long start) {
		return (System.nanoTime() - start) / 1_000_000;
	}

	/** Content in quotes, cut short, on one line. */
	private static String quoted(String text) {
		String cut = (text.length() > MAX_CONTENT) ? text.substring(0, MAX_CONTENT) + "…" : text;
		return '"' + LogSafe.text(cut.replace("\\", "\\\\").replace("\"", "\\\"")) + '"';
	}

}
