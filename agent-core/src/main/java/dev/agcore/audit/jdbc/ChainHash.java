package dev.agcore.audit.jdbc;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import dev.agcore.audit.AuditEvent;
import org.jspecify.annotations.Nullable;

/**
 * The hash of a chained audit row: SHA-256 over the hash of the row before it and the
 * row's canonical content, each field written as its length, a colon and its value (a
 * dash for none), so that no two different rows read the same.
 */
final class ChainHash {

	private ChainHash() {
	}

	static String of(String previous, long seq, AuditEvent event) {
		return of(previous, seq, Arrays.asList(event.id().toString(), event.time().toString(), event.kind().name(),
				event.agent(), event.sessionId(), event.userId(), event.tool(), event.toolCallId(), event.arguments(),
				event.outcome(), event.detail()));
	}

	/**
	 * The hash of a row.
	 * @param previous the hash of the row before, empty for the first
	 * @param seq the row's place in the chain
	 * @param fields id, time, kind, agent, session, user, tool, call, arguments, outcome
	 * and detail, as stored
	 */
	static String of(String previous, long seq, List<@Nullable String> fields) {
		StringBuilder content = new StringBuilder(1024);
		content.append(previous).append('\n');
		field(content, Long.toString(seq));
		fields.forEach((value) -> field(content, value));
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256")
				.digest(content.toString().getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(digest);
		}
		catch (NoSuchAlgorithmException ex) {
			// every Java platform has SHA-256
			throw new IllegalStateException(ex);
		}
	}

	private static void field(StringBuilder content, @Nullable String value) {
		if (value == null) {
			content.append("-;");
		}
		else {
			content.append(value.length()).append(':').append(value).append(';');
		}
	}

}
