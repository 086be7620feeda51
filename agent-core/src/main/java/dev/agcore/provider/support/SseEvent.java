package dev.agcore.provider.support;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One server-sent event.
 *
 * @param id the last event id seen in the stream, if any
 * @param event the event type from an {@code event:} line, null when the event had none
 * @param data the data, with the lines of a multi-line event joined by {@code \n}
 */
public record SseEvent(@Nullable String id, @Nullable String event, String data) {

	public SseEvent {
		Objects.requireNonNull(data, "'data' must not be null");
	}

	/**
	 * Create an event with data only.
	 * @param data the data
	 * @return the event
	 */
	public static SseEvent of(String data) {
		return new SseEvent(null, null, data);
	}

}
