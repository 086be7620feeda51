package dev.agcore.provider.support;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.core.io.buffer.DataBufferLimitException;

/**
 * Incremental parser of the {@code text/event-stream} format. Bytes can be fed in pieces
 * split anywhere, even inside a line or a multi-byte character: lines are cut on bytes
 * and only complete lines are decoded as UTF-8. Not thread-safe: one parser per stream.
 */
final class SseEventParser {

	static final int DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;

	private final int maxEventBytes;

	private byte[] line = new byte[256];

	private int lineLength;

	private boolean lastWasCr;

	private boolean firstLine = true;

	private final StringBuilder data = new StringBuilder();

	private boolean hasData;

	private @Nullable String eventType;

	private @Nullable String lastEventId;

	SseEventParser() {
		this(DEFAULT_MAX_EVENT_BYTES);
	}

	SseEventParser(int maxEventBytes) {
		this.maxEventBytes = maxEventBytes;
	}

	/**
	 * Feed the next bytes of the stream.
	 * @param bytes the bytes
	 * @param offset where to start in {@code bytes}
	 * @param length how many bytes to read
	 * @return the events completed by these bytes, possibly none
	 * @throws DataBufferLimitException if an event grows larger than the limit
	 */
	List<SseEvent> feed(byte[] bytes, int offset, int length) {
		List<SseEvent> events = new ArrayList<>(2);
		for (int i = offset; i < offset + length; i++) {
			byte b = bytes[i];
			if (this.lastWasCr) {
				this.lastWasCr = false;
				if (b == '\n') {
					// second half of a CRLF whose CR ended the line already
					continue;
				}
			}
			if (b == '\n' || b == '\r') {
				this.lastWasCr = (b == '\r');
				endLine(events);
			}
			else {
				append(b);
			}
		}
		return events;
	}

	/**
	 * Signal the end of the stream. Lenient where the specification is strict: an event
	 * the server did not terminate with a blank line is still dispatched, since some
	 * servers close the connection right after the last {@code data:} line.
	 * @return the last event, if one was pending
	 */
	List<SseEvent> finish() {
		List<SseEvent> events = new ArrayList<>(1);
		if (this.lineLength > 0) {
			endLine(events);
		}
		SseEvent last = dispatch();
		if (last != null) {
			events.add(last);
		}
		return events;
	}

	private void append(byte b) {
		if (this.lineLength == this.line.length) {
			if (this.line.length >= this.maxEventBytes) {
				throw new DataBufferLimitException("Server-sent event line exceeds " + this.maxEventBytes + " bytes");
			}
			this.line = Arrays.copyOf(this.line, Math.min(this.line.length * 2, this.maxEventBytes));
		}
		this.line[this.lineLength++] = b;
	}

	private void endLine(List<SseEvent> events) {
		String text = new String(this.line, 0, this.lineLength, StandardCharsets.UTF_8);
		this.lineLength = 0;
		if (this.firstLine) {
			this.firstLine = false;
			if (text.startsWith("\uFEFF")) {
				text = text.substring(1);
			}
		}
		if (text.isEmpty()) {
			SseEvent event = dispatch();
			if (event != null) {
				events.add(event);
			}
			return;
		}
		if (text.charAt(0) == ':') {
			return;
		}
		int colon = text.indexOf(':');
		String field = (colon != -1) ? text.substring(0, colon) : text;
		String value = (colon != -1) ? text.substring(colon + 1) : "";
		if (value.startsWith(" ")) {
			value = value.substring(1);
		}
		switch (field) {
			case "data" -> appendData(value);
			case "event" -> this.eventType = value;
			case "id" -> {
				if (value.indexOf('\0') == -1) {
					this.lastEventId = value;
				}
			}
			default -> {
				// "retry" and unknown fields carry nothing we use
			}
		}
	}

	private void appendData(String value) {
		if (this.data.length() + value.length() > this.maxEventBytes) {
			throw new DataBufferLimitException("Server-sent event exceeds " + this.maxEventBytes + " bytes");
		}
		if (this.hasData) {
			this.data.append('\n');
		}
		this.data.append(value);
		this.hasData = true;
	}

	private @Nullable SseEvent dispatch() {
		if (!this.hasData) {
			this.eventType = null;
			return null;
		}
		SseEvent event = new SseEvent(this.lastEventId, this.eventType, this.data.toString());
		this.data.setLength(0);
		this.hasData = false;
		this.eventType = null;
		return event;
	}

}
