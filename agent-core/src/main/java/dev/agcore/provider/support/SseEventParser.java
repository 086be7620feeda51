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

	private static final byte[] BYTE_ORDER_MARK = { (byte) 0xEF, (byte) 0xBB, (byte) 0xBF };

	private static final byte[] DATA = "data".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] EVENT = "event".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] ID = "id".getBytes(StandardCharsets.US_ASCII);

	private final int maxEventBytes;

	private byte[] line = new byte[256];

	private int lineLength;

	private boolean lastWasCr;

	private boolean firstLine = true;

	// the first data line of the event; the later ones, joined, only for multi-line data
	private String firstData = "";

	private final StringBuilder moreData = new StringBuilder();

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
		// most reads complete no event or one: no list until there is one
		List<SseEvent> events = null;
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
				SseEvent event = endLine();
				if (event != null) {
					events = (events != null) ? events : new ArrayList<>(2);
					events.add(event);
				}
			}
			else {
				append(b);
			}
		}
		return (events != null) ? events : List.of();
	}

	/**
	 * Signal the end of the stream. Lenient where the specification is strict: an event
	 * the server did not terminate with a blank line is still dispatched, since some
	 * servers close the connection right after the last {@code data:} line.
	 * @return the last event, if one was pending
	 */
	List<SseEvent> finish() {
		SseEvent ended = (this.lineLength > 0) ? endLine() : null;
		SseEvent last = dispatch();
		if (ended != null) {
			return (last != null) ? List.of(ended, last) : List.of(ended);
		}
		return (last != null) ? List.of(last) : List.of();
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

	// The line is read on its bytes: field names and the colon are ASCII, so only the
	// value is decoded, once, and a single data line becomes the event's data as it is.
	private @Nullable SseEvent endLine() {
		int start = 0;
		int end = this.lineLength;
		this.lineLength = 0;
		if (this.firstLine) {
			this.firstLine = false;
			if (end >= BYTE_ORDER_MARK.length && lineHas(BYTE_ORDER_MARK, 0, BYTE_ORDER_MARK.length)) {
				start = BYTE_ORDER_MARK.length;
			}
		}
		if (start == end) {
			return dispatch();
		}
		if (this.line[start] == ':') {
			return null;
		}
		int colon = indexOfColon(start, end);
		int fieldEnd = (colon != -1) ? colon : end;
		int valueStart = (colon != -1) ? colon + 1 : end;
		if (valueStart < end && this.line[valueStart] == ' ') {
			valueStart++;
		}
		if (lineHas(DATA, start, fieldEnd)) {
			appendData(decode(valueStart, end));
		}
		else if (lineHas(EVENT, start, fieldEnd)) {
			this.eventType = decode(valueStart, end);
		}
		else if (lineHas(ID, start, fieldEnd)) {
			String id = decode(valueStart, end);
			if (id.indexOf('\0') == -1) {
				this.lastEventId = id;
			}
		}
		// "retry" and unknown fields carry nothing we use
		return null;
	}

	private int indexOfColon(int start, int end) {
		for (int i = start; i < end; i++) {
			if (this.line[i] == ':') {
				return i;
			}
		}
		return -1;
	}

	private boolean lineHas(byte[] bytes, int start, int end) {
		return Arrays.equals(this.line, start, end, bytes, 0, bytes.length);
	}

	private String decode(int start, int end) {
		return (start == end) ? "" : new String(this.line, start, end - start, StandardCharsets.UTF_8);
	}

	private void appendData(String value) {
		int dataLength = this.moreData.isEmpty() ? this.firstData.length() : this.moreData.length();
		if (dataLength + value.length() > this.maxEventBytes) {
			throw new DataBufferLimitException("Server-sent event exceeds " + this.maxEventBytes + " bytes");
		}
		if (!this.hasData) {
			this.firstData = value;
			this.hasData = true;
			return;
		}
		if (this.moreData.isEmpty()) {
			this.moreData.append(this.firstData);
		}
		this.moreData.append('\n').append(value);
	}

	private @Nullable SseEvent dispatch() {
		if (!this.hasData) {
			this.eventType = null;
			return null;
		}
		String data = this.moreData.isEmpty() ? this.firstData : this.moreData.toString();
		SseEvent event = new SseEvent(this.lastEventId, this.eventType, data);
		this.moreData.setLength(0);
		this.firstData = "";
		this.hasData = false;
		this.eventType = null;
		return event;
	}

}
