package dev.agcore.autoconfigure.web.openai;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentResult;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.codec.ServerSentEvent;

/**
 * A turn's events as the server-sent events of a streamed Chat Completion: a chunk with
 * the assistant's role, one per text delta (and per tool call, when shown), a last chunk
 * with the finish reason, the usage chunk if asked for, then {@code [DONE]}. A failure
 * after the stream started is a {@code data: {"error": ...}} event, then {@code [DONE]}.
 */
final class ChatCompletionStream {

	private static final String DONE = "[DONE]";

	private final JsonMapper json;

	private final ChatCompletions completion;

	private final ChatRequest request;

	private final boolean exposeToolCalls;

	private final AtomicInteger toolCalls = new AtomicInteger();

	ChatCompletionStream(JsonMapper json, ChatCompletions completion, ChatRequest request, boolean exposeToolCalls) {
		this.json = json;
		this.completion = completion;
		this.request = request;
		this.exposeToolCalls = exposeToolCalls;
	}

	/**
	 * The stream's events.
	 * @param events the turn's events
	 * @param failure how a failure is answered: the error object to send
	 * @return the server-sent events, ending with {@code [DONE]}
	 */
	Flux<ServerSentEvent<String>> events(Flux<AgentEvent> events, Function<Throwable, OpenAiError> failure) {
		Flux<Map<String, Object>> chunks = events.concatMap((event) -> chunks(event, failure))
			.onErrorResume((ex) -> Mono.just(failure.apply(ex).body()));
		return Flux.concat(Mono.just(this.completion.chunk(Map.of("role", "assistant", "content", ""), null)), chunks)
			.map((chunk) -> ServerSentEvent.builder(this.json.writeValueAsString(chunk)).build())
			.concatWith(Mono.just(ServerSentEvent.builder(DONE).build()));
	}

	private Flux<Map<String, Object>> chunks(AgentEvent event, Function<Throwable, OpenAiError> failure) {
		if (event instanceof AgentEvent.TextDelta text && !text.text().isEmpty()) {
			return Flux.just(this.completion.chunk(Map.of("content", text.text()), null));
		}
		if (event instanceof AgentEvent.ToolCallStarted call && this.exposeToolCalls) {
			return Flux.just(this.completion.chunk(Map.of("tool_calls", List.of(ChatCompletions
				.toolCall(this.toolCalls.getAndIncrement(), call.id(), call.name(), call.arguments()))), null));
		}
		if (event instanceof AgentEvent.Completed completed) {
			return end(completed.result());
		}
		if (event instanceof AgentEvent.Interrupted interrupted) {
			return end(interrupted.result());
		}
		if (event instanceof AgentEvent.Failed failed) {
			Throwable cause = (failed.cause() != null) ? failed.cause()
					: new IllegalStateException(failed.errorType() + ": " + failed.message());
			return Flux.just(failure.apply(cause).body());
		}
		// reasoning, progress, sub-agents, plans: nothing a Chat Completions client reads
		return Flux.empty();
	}

	private Flux<Map<String, Object>> end(AgentResult result) {
		Map<String, Object> last = this.completion.chunk(Map.of(), ChatCompletions.finishReason(result));
		return this.request.includeUsage() ? Flux.just(last, this.completion.usageChunk(result.usage()))
				: Flux.just(last);
	}

}
