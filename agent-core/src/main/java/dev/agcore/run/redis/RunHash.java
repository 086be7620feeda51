package dev.agcore.run.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.agcore.json.AgentJson;
import dev.agcore.memory.MemoryException;
import dev.agcore.run.Run;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStatus;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Converts between a {@link Run} and the fields of its Redis hash (text values, JSON for
 * the input, result and resume, ISO-8601 for instants and durations), and reads the
 * JSON replies of {@link RunScripts}.
 */
final class RunHash {

	private RunHash() {
	}

	/** The field/value pairs of a new run's request, as the submit script stores them. */
	static List<String> requestFields(String id, RunRequest request, Instant createdAt) {
		List<String> fields = new ArrayList<>(20);
		add(fields, "id", id);
		add(fields, "kind", request.kind());
		add(fields, "target", request.target());
		add(fields, "session", request.sessionId());
		add(fields, "input", AgentJson.mapper().writeValueAsString(request.input()));
		add(fields, "created", createdAt.toString());
		if (request.userId() != null) {
			add(fields, "user", request.userId());
		}
		if (request.notBefore() != null) {
			add(fields, "notBefore", request.notBefore().toString());
		}
		if (request.deadline() != null) {
			add(fields, "deadline", request.deadline().toString());
		}
		if (request.idempotencyKey() != null) {
			add(fields, "idempotency", request.idempotencyKey());
		}
		return fields;
	}

	/**
	 * Read a script's reply: {@code {"run": [field, value, ...]}} or
	 * {@code {"runs": [[...], ...]}} (an empty list comes as {@code {}}).
	 */
	static List<Run> runs(JsonNode reply) {
		JsonNode runs = reply.path("runs");
		List<Run> result = new ArrayList<>();
		if (runs.isArray()) {
			for (JsonNode run : runs) {
				result.add(run(pairs(run)));
			}
		}
		return result;
	}

	static Run run(JsonNode reply) {
		return run(pairs(reply.path("run")));
	}

	static JsonNode reply(String json) {
		try {
			return AgentJson.mapper().readTree(json);
		}
		catch (JacksonException ex) {
			throw new MemoryException("The Redis run store answered malformed JSON: " + ex.getMessage(), ex);
		}
	}

	static Run run(Map<String, String> hash) {
		String id = hash.getOrDefault("id", "?");
		try {
			RunRequest request = new RunRequest(required(hash, "kind"), required(hash, "target"),
					required(hash, "session"), json(required(hash, "input")), hash.get("user"),
					instant(hash.get("notBefore")), duration(hash.get("deadline")), hash.get("idempotency"));
			String code = hash.get("error");
			Run.RunError error = (code != null) ? new Run.RunError(code, hash.getOrDefault("message", "")) : null;
			return new Run(required(hash, "id"), request, RunStatus.valueOf(required(hash, "status")),
					jsonOrNull(hash.get("resume")), jsonOrNull(hash.get("result")), error,
					Integer.parseInt(hash.getOrDefault("attempts", "0")), "1".equals(hash.get("cancel")),
					hash.get("owner"), instant(hash.get("leaseAt")), Instant.parse(required(hash, "created")),
					instant(hash.get("started")), instant(hash.get("finished")));
		}
		catch (RuntimeException ex) {
			if (ex instanceof MemoryException) {
				throw ex;
			}
			throw new MemoryException("The stored run '" + id + "' is malformed: " + ex.getMessage(), ex);
		}
	}

	private static Map<String, String> pairs(JsonNode array) {
		Map<String, String> hash = new HashMap<>();
		if (array.isArray()) {
			for (int i = 0; i + 1 < array.size(); i += 2) {
				hash.put(array.get(i).asString(), array.get(i + 1).asString());
			}
		}
		return hash;
	}

	private static String required(Map<String, String> hash, String field) {
		String value = hash.get(field);
		if (value == null) {
			throw new MemoryException("The stored run '" + hash.getOrDefault("id", "?") + "' has no '" + field + "'");
		}
		return value;
	}

	static JsonNode json(String text) {
		return AgentJson.mapper().readTree(text);
	}

	private static @Nullable JsonNode jsonOrNull(@Nullable String text) {
		return (text != null) ? json(text) : null;
	}

	private static @Nullable Instant instant(@Nullable String text) {
		return (text != null) ? Instant.parse(text) : null;
	}

	private static @Nullable Duration duration(@Nullable String text) {
		return (text != null) ? Duration.parse(text) : null;
	}

	private static void add(List<String> fields, String name, String value) {
		fields.add(name);
		fields.add(value);
	}

}
