package dev.agcore.testing.assertj;

import java.util.List;
import java.util.Objects;

import dev.agcore.message.ToolCall;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentResult;
import org.assertj.core.api.AbstractAssert;
import org.jspecify.annotations.Nullable;

/**
 * Assertions on the events of a streamed turn: the text and reasoning they assemble, the
 * tool calls they report, their types in order and how the stream ended.
 */
public final class AgentEventsAssert extends AbstractAssert<AgentEventsAssert, List<AgentEvent>> {

	AgentEventsAssert(List<AgentEvent> actual) {
		super(actual, AgentEventsAssert.class);
	}

	/**
	 * Verify the text the stream assembles: its text deltas, where a
	 * {@link AgentEvent.TextReset} discards the text of the current model response (the
	 * deltas since the last {@link AgentEvent.UsageReported}).
	 * @param expected the expected text
	 * @return this
	 */
	public AgentEventsAssert hasText(String expected) {
		String text = text();
		if (!text.equals(expected)) {
			failWithMessage("Expected the streamed text to be%n  \"%s\"%nbut it was%n  \"%s\"", expected, text);
		}
		return this;
	}

	/**
	 * Verify that the text the stream assembles contains the given text.
	 * @param expected the text
	 * @return this
	 */
	public AgentEventsAssert textContains(String expected) {
		String text = text();
		if (!text.contains(expected)) {
			failWithMessage("Expected the streamed text to contain%n  \"%s\"%nbut it was%n  \"%s\"", expected, text);
		}
		return this;
	}

	/**
	 * Verify the reasoning the stream assembles from its reasoning deltas.
	 * @param expected the expected reasoning
	 * @return this
	 */
	public AgentEventsAssert hasReasoning(String expected) {
		isNotNull();
		StringBuilder reasoning = new StringBuilder();
		this.actual.forEach((event) -> {
			if (event instanceof AgentEvent.ReasoningDelta delta) {
				reasoning.append(delta.text());
			}
		});
		if (!reasoning.toString().equals(expected)) {
			failWithMessage("Expected the streamed reasoning to be%n  \"%s\"%nbut it was%n  \"%s\"", expected,
					reasoning);
		}
		return this;
	}

	/**
	 * Verify that these event types occur in this order, other events allowed between
	 * them (types as {@link AgentEvent#type()} names them: {@code text}, {@code tool_call},
	 * {@code tool_result}, {@code usage}, {@code completed}...).
	 * @param types the types
	 * @return this
	 */
	public AgentEventsAssert hasEventTypesInOrder(String... types) {
		isNotNull();
		List<String> actualTypes = types();
		int next = 0;
		for (String type : actualTypes) {
			if (next < types.length && type.equals(types[next])) {
				next++;
			}
		}
		if (next < types.length) {
			failWithMessage("Expected the event types%n  %s%nin this order, but '%s' was missing after %s in%n  %s",
					List.of(types), types[next], List.of(types).subList(0, next), actualTypes);
		}
		return this;
	}

	/**
	 * Verify that the stream reports a call of a tool, and assert on its first call (its
	 * result is the one of the matching {@code tool_result} event, when there is one).
	 * @param name the tool name
	 * @return an assertion on the call
	 */
	public ToolCallAssert containsToolCall(String name) {
		isNotNull();
		AgentEvent.ToolCallStarted started = this.actual.stream()
			.filter(AgentEvent.ToolCallStarted.class::isInstance)
			.map(AgentEvent.ToolCallStarted.class::cast)
			.filter((event) -> event.name().equals(name))
			.findFirst()
			.orElse(null);
		if (started == null) {
			failWithMessage("Expected the stream to contain a call of tool '%s' but it called %s", name,
					this.actual.stream()
						.filter(AgentEvent.ToolCallStarted.class::isInstance)
						.map((event) -> ((AgentEvent.ToolCallStarted) event).name())
						.toList());
		}
		AgentEvent.ToolCallStarted call = Objects.requireNonNull(started);
		AgentEvent.ToolCallCompleted completed = this.actual.stream()
			.filter(AgentEvent.ToolCallCompleted.class::isInstance)
			.map(AgentEvent.ToolCallCompleted.class::cast)
			.filter((event) -> event.id().equals(call.id()))
			.findFirst()
			.orElse(null);
		return new ToolCallAssert(new ToolCall(call.id(), call.name(), call.arguments()),
				(completed != null) ? completed.result() : null, completed != null && completed.error())
			.as("streamed call '%s'", name);
	}

	/**
	 * Verify that the stream ended with {@link AgentEvent.Completed}, and assert on its
	 * result.
	 * @return an assertion on the result
	 */
	public AgentResultAssert completed() {
		AgentEvent last = last();
		if (!(last instanceof AgentEvent.Completed completed)) {
			failWithMessage("Expected the stream to end with a completed event but it ended with %s", last);
			throw new IllegalStateException();
		}
		return new AgentResultAssert(completed.result());
	}

	/**
	 * Verify that the stream ended with {@link AgentEvent.Interrupted}, and assert on its
	 * result.
	 * @return an assertion on the result
	 */
	public AgentResultAssert interrupted() {
		AgentEvent last = last();
		if (!(last instanceof AgentEvent.Interrupted interrupted)) {
			failWithMessage("Expected the stream to end with an interrupt event but it ended with %s", last);
			throw new IllegalStateException();
		}
		AgentResult result = interrupted.result();
		return new AgentResultAssert(result);
	}

	/**
	 * Verify that the stream ended with {@link AgentEvent.Failed} whose message contains
	 * the given text.
	 * @param message the text
	 * @return this
	 */
	public AgentEventsAssert failedWith(String message) {
		AgentEvent last = last();
		if (!(last instanceof AgentEvent.Failed failed) || !failed.message().contains(message)) {
			failWithMessage("Expected the stream to end with an error containing%n  \"%s\"%nbut it ended with %s",
					message, last);
		}
		return this;
	}

	private @Nullable AgentEvent last() {
		isNotNull();
		if (this.actual.isEmpty()) {
			failWithMessage("Expected events but the stream was empty");
		}
		return this.actual.get(this.actual.size() - 1);
	}

	private List<String> types() {
		return this.actual.stream().map(AgentEvent::type).toList();
	}

	private String text() {
		isNotNull();
		StringBuilder before = new StringBuilder();
		StringBuilder current = new StringBuilder();
		for (AgentEvent event : this.actual) {
			if (event instanceof AgentEvent.TextDelta delta) {
				current.append(delta.text());
			}
			else if (event instanceof AgentEvent.TextReset) {
				current.setLength(0);
			}
			else if (event instanceof AgentEvent.UsageReported) {
				before.append(current);
				current.setLength(0);
			}
		}
		return before.append(current).toString();
	}

}
