package dev.agcore.runtime;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.observation.AgentObservationDocumentation;
import dev.agcore.observation.AgentObservations;
import dev.agcore.observation.ContentCapture;
import dev.agcore.observation.InvokeAgentObservationContext;
import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * Helpers shared by the observed steps of a turn: an observation stopped once whichever
 * signal comes first, events on the turn's observation, and captured content.
 */
final class TurnObservations {

	private TurnObservations() {
	}

	/** The session id of the turn an observation belongs to, empty when it is not a turn. */
	static String sessionId(@Nullable Observation parent) {
		if (parent != null && parent.getContext() instanceof InvokeAgentObservationContext turn) {
			return turn.getSessionId();
		}
		return "";
	}

	/**
	 * Mark a hook as an event on the turn's observation, then go on with what follows; when
	 * hooks are not observed, what follows as it is, without an operator more per hook.
	 */
	static <T> Mono<T> marked(boolean observesHooks, AgentObservationDocumentation.Events event, Mono<T> next) {
		if (!observesHooks) {
			return next;
		}
		return Mono.deferContextual((view) -> {
			event(view, event);
			return next;
		});
	}

	/** Mark a hook of the turn whose observation the Reactor context carries. */
	static void event(ContextView view, AgentObservationDocumentation.Events event) {
		Observation observation = AgentObservations.current(view);
		if (observation != null && observation.getContext() instanceof InvokeAgentObservationContext) {
			observation.event(event);
		}
	}

	/** Record a text, cleaned, when content capture is on. */
	static void capture(Observation observation, ContentCapture capture, KeyName key, String text) {
		if (capture.enabled()) {
			observation.highCardinalityKeyValue(key.withValue(capture.clean(text)));
		}
	}

	/** Record messages, rendered and cleaned, when content capture is on; else render nothing. */
	static void capture(Observation observation, ContentCapture capture, KeyName key,
			List<? extends Message> messages) {
		if (capture.enabled()) {
			observation.highCardinalityKeyValue(key.withValue(capture.clean(render(messages))));
		}
	}

	/** Messages as {@code role: text} lines, with the tool calls of assistant messages. */
	static String render(List<? extends Message> messages) {
		StringBuilder text = new StringBuilder();
		for (Message message : messages) {
			if (text.length() > 0) {
				text.append('\n');
			}
			text.append(message.role().name().toLowerCase(java.util.Locale.ROOT)).append(": ").append(message.text());
			if (message instanceof AssistantMessage assistant) {
				for (ToolCall call : assistant.toolCalls()) {
					text.append("\n  tool_call ").append(call.name()).append(' ').append(call.arguments());
				}
			}
		}
		return text.toString();
	}

	/** An observation that is stopped once, by the first of success, error or cancel. */
	static final class Once {

		private final Observation observation;

		private final AtomicBoolean stopped = new AtomicBoolean();

		Once(Observation observation) {
			this.observation = observation;
		}

		Observation observation() {
			return this.observation;
		}

		boolean stop(@Nullable Throwable error) {
			if (!this.stopped.compareAndSet(false, true)) {
				return false;
			}
			if (error != null) {
				this.observation.error(error);
			}
			this.observation.stop();
			return true;
		}

	}

}
