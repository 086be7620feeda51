package dev.agcore.run;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

import dev.agcore.json.AgentJson;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a store keeps of a run's idempotency key: the key scoped to who submitted it, and
 * a fingerprint of what was submitted.
 * <p>
 * A key alone is not enough: keys are chosen by callers, so two users may well pick the
 * same one, and a key that found a run by itself would hand one user another's run. The
 * scope is the principal's name, or the session when there is no principal (so an
 * anonymous caller reaches only runs of a session it names), plus the run's kind and
 * target. The fingerprint is a SHA-256 of a canonical form of the request (object
 * members sorted), so that the same key sent with a different request is refused
 * ({@link IdempotencyConflictException}) rather than answered with a run that was asked
 * for with something else, as the IETF {@code Idempotency-Key} header draft describes.
 * Both are hex SHA-256 digests, so stores keep 64 characters whatever the names.
 *
 * @param key the scoped key, a hex SHA-256 digest
 * @param fingerprint the request's fingerprint, a hex SHA-256 digest
 * @since 0.1.0
 */
public record RunIdempotency(String key, String fingerprint) {

	// bumped if the derivation ever changes, so old and new keys never meet
	private static final String VERSION = "agcore-run-idempotency-1";

	public RunIdempotency {
		Objects.requireNonNull(key, "'key' must not be null");
		Objects.requireNonNull(fingerprint, "'fingerprint' must not be null");
	}

	/**
	 * The idempotency of a request, its fingerprint taken from the request itself.
	 * @param request the run
	 * @param principal the name of the principal submitting it, or {@code null} for none
	 * (the key is then scoped to the request's session)
	 * @return the idempotency, or {@code null} when the request has no key
	 */
	public static @Nullable RunIdempotency of(RunRequest request, @Nullable String principal) {
		return of(request, principal, fingerprint(canonical(request)));
	}

	/**
	 * The idempotency of a request with a fingerprint the caller computed, such as the
	 * HTTP route's fingerprint of the request body (a body with {@code "delay": "5m"}
	 * asks for the same run each time, although each submit computes another
	 * {@code notBefore}).
	 * @param request the run
	 * @param principal the name of the principal submitting it, or {@code null} for none
	 * @param fingerprint the request's fingerprint, as {@link #fingerprint(JsonNode)}
	 * computes it
	 * @return the idempotency, or {@code null} when the request has no key
	 */
	public static @Nullable RunIdempotency of(RunRequest request, @Nullable String principal, String fingerprint) {
		if (request.idempotencyKey() == null) {
			return null;
		}
		String scope = (principal != null) ? "principal" : "session";
		String scopeValue = (principal != null) ? principal : request.sessionId();
		// length-prefixed parts: no choice of names makes two scopes collide
		return new RunIdempotency(sha256(VERSION, scope, scopeValue, request.kind(), request.target(),
				request.idempotencyKey()), fingerprint);
	}

	/**
	 * The fingerprint of a JSON value: a hex SHA-256 of its canonical text, object members
	 * sorted by name at every depth, so that the order a client wrote them in does not
	 * matter.
	 * @param value the value
	 * @return the fingerprint
	 */
	public static String fingerprint(JsonNode value) {
		return sha256(AgentJson.mapper().writeValueAsString(sorted(value)));
	}

	private static JsonNode canonical(RunRequest request) {
		ObjectNode node = AgentJson.mapper().createObjectNode();
		node.put("kind", request.kind());
		node.put("target", request.target());
		node.put("sessionId", request.sessionId());
		node.set("input", request.input());
		node.put("userId", request.userId());
		node.put("notBefore", (request.notBefore() != null) ? request.notBefore().toString() : null);
		node.put("deadline", (request.deadline() != null) ? request.deadline().toString() : null);
		return node;
	}

	private static JsonNode sorted(JsonNode value) {
		if (value instanceof ObjectNode object) {
			List<String> names = new ArrayList<>(object.propertyNames());
			Collections.sort(names);
			ObjectNode copy = AgentJson.mapper().createObjectNode();
			for (String name : names) {
				copy.set(name, sorted(object.get(name)));
			}
			return copy;
		}
		if (value instanceof ArrayNode array) {
			ArrayNode copy = AgentJson.mapper().createArrayNode();
			array.forEach((element) -> copy.add(sorted(element)));
			return copy;
		}
		return value;
	}

	private static String sha256(String... parts) {
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			for (String part : parts) {
				byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
				digest.update((bytes.length + ":").getBytes(StandardCharsets.US_ASCII));
				digest.update(bytes);
			}
			return HexFormat.of().formatHex(digest.digest());
		}
		catch (NoSuchAlgorithmException ex) {
			// every Java platform has SHA-256
			throw new IllegalStateException(ex);
		}
	}

}
