package dev.agcore.audit.outbox;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.zip.CRC32C;

import dev.agcore.audit.AuditEvent;
import dev.agcore.json.AgentJson;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One journal line per event: the CRC-32C of the JSON, a space, the JSON, a newline. The
 * checksum tells a line the disk garbled, or one a crash cut short, from a whole one; the
 * JSON holds no raw newline (strings escape theirs), so lines split on newlines alone.
 */
final class JournalRecords {

	private static final HexFormat HEX = HexFormat.of();

	private JournalRecords() {
	}

	static byte[] encode(AuditEvent event) {
		Map<String, @Nullable Object> fields = new LinkedHashMap<>();
		fields.put("id", event.id().toString());
		fields.put("kind", event.kind().name());
		fields.put("agent", event.agent());
		fields.put("sessionId", event.sessionId());
		fields.put("userId", event.userId());
		fields.put("tool", event.tool());
		fields.put("toolCallId", event.toolCallId());
		fields.put("arguments", event.arguments());
		fields.put("outcome", event.outcome());
		fields.put("detail", event.detail());
		fields.put("time", event.time().toString());
		byte[] json = AgentJson.mapper().writeValueAsString(fields).getBytes(StandardCharsets.UTF_8);
		byte[] line = new byte[9 + json.length + 1];
		// eight hex digits of the checksum, a space, the JSON, a newline
		byte[] crc = HEX.toHexDigits((int) crc(json, 0, json.length)).getBytes(StandardCharsets.US_ASCII);
		System.arraycopy(crc, 0, line, 0, 8);
		line[8] = ' ';
		System.arraycopy(json, 0, line, 9, json.length);
		line[line.length - 1] = '\n';
		return line;
	}

	/**
	 * Read one line, without its newline.
	 * @return the event, or {@code null} when the line is not a whole, intact record
	 */
	static @Nullable AuditEvent decode(byte[] buffer, int start, int end) {
		if (end - start < 10 || buffer[start + 8] != ' ') {
			return null;
		}
		long expected;
		try {
			expected = Integer.toUnsignedLong(
					(int) Long.parseLong(new String(buffer, start, 8, StandardCharsets.US_ASCII), 16));
		}
		catch (NumberFormatException ex) {
			return null;
		}
		if (crc(buffer, start + 9, end - start - 9) != expected) {
			return null;
		}
		try {
			JsonNode node = AgentJson.mapper()
				.readTree(new String(buffer, start + 9, end - start - 9, StandardCharsets.UTF_8));
			return new AuditEvent(AuditEvent.Kind.valueOf(node.get("kind").asString()), text(node, "agent"),
					text(node, "sessionId"), nullable(node, "userId"), nullable(node, "tool"),
					nullable(node, "toolCallId"), text(node, "arguments"), text(node, "outcome"), text(node, "detail"),
					Instant.parse(text(node, "time")), UUID.fromString(text(node, "id")));
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	private static long crc(byte[] bytes, int offset, int length) {
		CRC32C crc = new CRC32C();
		crc.update(bytes, offset, length);
		return crc.getValue();
	}

	private static String text(JsonNode node, String field) {
		JsonNode value = node.get(field);
		if (value == null || !value.isString()) {
			throw new IllegalArgumentException("no " + field);
		}
		return value.asString();
	}

	private static @Nullable String nullable(JsonNode node, String field) {
		JsonNode value = node.get(field);
		return (value == null || value.isNull()) ? null : value.asString();
	}

}
