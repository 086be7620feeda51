package dev.agcore.runtime;

import java.util.function.Function;

import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.model.Usage;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * A turn as a stream of {@link AgentEvent}s: text, usage and tool calls as they happen,
 * then how the turn ended. A failure ends the stream with a {@link AgentEvent.Failed}
 * event rather than an error signal.
 */
final class TurnEvents {

	private TurnEvents() {
	}

	/** Run a turn with a listener that turns what happens into events. */
	static Flux<AgentEvent> events(Function<TurnListener, Mono<AgentResult>> turn) {
		return Flux.create((sink) -> {
			BaseSubscriber<AgentResult> running = new BaseSubscriber<>() {

				@Override
				protected void hookOnNext(AgentResult result) {
					sink.next(result.isInterrupted() ? new AgentEvent.Interrupted(result)
							: new AgentEvent.Completed(result));
				}

				@Override
				protected void hookOnError(Throwable ex) {
					sink.next(failed(ex));
					sink.complete();
				}

				@Override
				protected void hookOnComplete() {
					sink.complete();
				}

				// the caller's context reaches the turn: a sub-agent's depth, say
				@Override
				public Context currentContext() {
					return Context.of(sink.contextView());
				}

			};
			// before the turn starts: a caller that cancels during a part of the turn that
			// runs on the subscribing thread cancels it there, not after it ran to its end
			sink.onDispose(running);
			turn.apply(new EventEmitter(sink)).subscribe(running);
		});
	}

	private static AgentEvent.Failed failed(Throwable ex) {
		String message = ex.getMessage();
		return new AgentEvent.Failed(ex.getClass().getSimpleName(),
				(message != null && !message.isBlank()) ? message : ex.getClass().getSimpleName(), ex);
	}

	/** Turns loop notifications into events on the stream. */
	private static final class EventEmitter implements TurnListener {

		private final FluxSink<AgentEvent> sink;

		EventEmitter(FluxSink<AgentEvent> sink) {
			this.sink = sink;
		}

		@Override
		public boolean streaming() {
			return true;
		}

		@Override
		public void onText(String delta) {
			this.sink.next(new AgentEvent.TextDelta(delta));
		}

		@Override
		public void onReasoning(String delta) {
			this.sink.next(new AgentEvent.ReasoningDelta(delta));
		}

		@Override
		public void onTextReset() {
			this.sink.next(new AgentEvent.TextReset());
		}

		@Override
		public void onUsage(Usage usage) {
			this.sink.next(new AgentEvent.UsageReported(usage));
		}

		@Override
		public void onToolCallStarted(ToolCall call) {
			this.sink.next(new AgentEvent.ToolCallStarted(call.id(), call.name(), call.arguments()));
		}

		@Override
		public void onToolCallCompleted(ToolResultMessage result) {
			this.sink.next(new AgentEvent.ToolCallCompleted(result.toolCallId(), result.toolName(), result.text(),
					result.error()));
		}

		@Override
		public void onRunnerFallback(String from, String to, String reason) {
			this.sink.next(new AgentEvent.RunnerFallback(from, to, reason));
		}

		@Override
		public void onToolProgress(ToolCall call, double progress, @Nullable Double total, @Nullable String message) {
			this.sink.next(new AgentEvent.ToolProgress(call.id(), call.name(), progress, total, message));
		}

		@Override
		public void onSubAgentEvent(ToolCall call, String agent, AgentEvent event) {
			this.sink.next(new AgentEvent.SubAgentEvent(call.id(), agent, event));
		}

	}

}
