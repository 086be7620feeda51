package dev.agcore.retrieval.knowledge;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

import dev.agcore.json.AgentJson;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The stored form of a page: a JSON object with the record's fields, timestamps as ISO-8601
 * text. Written by hand so that the format is stable whatever mapper the application
 * configures.
 */
final class KnowledgePageJson {

	private KnowledgePageJson() {
	}

	static ObjectNode write(KnowledgePage page) {
		ObjectNode json = AgentJson.mapper().createObjectNode();
		json.put("id", page.id());
		json.put("title", page.title());
		json.put("summary", page.summary());
		json.put("content", page.content());
		ArrayNode tags = json.putArray("tags");
		page.tags().forEach(tags::add);
		ArrayNode references = json.putArray("references");
		page.references().forEach(references::add);
		if (page.createdAt() != null) {
			json.put("createdAt", page.createdAt().toString());
		}
		if (page.updatedAt() != null) {
			json.put("updatedAt", page.updatedAt().toString());
		}
		return json;
	}

	/**
	 * Read a stored page.
	 * @throws IllegalArgumentException saying what is wrong
	 */
	static KnowledgePage read(JsonNode json) {
		if (!json.isObject()) {
			throw new IllegalArgumentException("expected a JSON object, found " + json.getNodeType());
		}
		String id = text(json, "id");
		if (id == null) {
			throw new IllegalArgumentException("'id' is missing");
		}
		return new KnowledgePage(id, orEmpty(text(json, "title")), orEmpty(text(json, "summary")),
				orEmpty(text(json, "content")), list(json, "tags"), list(json, "references"), instant(json, "createdAt"),
				instant(json, "updatedAt"));
	}

	private static @Nullable String text(JsonNode json, String field) {
		JsonNode value = json.get(field);
		if (value == null || value.isNull()) {
			return null;
		}
		if (!value.isString()) {
			throw new IllegalArgumentException("'" + field + "' is not text");
		}
		return value.asString();
	}

	private static String orEmpty(@Nullable String text) {
		return (text != null) ? text : "";
	}

	private static List<String> list(JsonNode json, String field) {
		JsonNode value = json.get(field);
		if (value == null || value.isNull()) {
			return List.of();
		}
		if (!value.isArray()) {
			throw new IllegalArgumentException("'" + field + "' is not an array");
		}
		List<String> list = new ArrayList<>();
		for (JsonNode element : value) {
			if (!element.isString()) {
				throw new IllegalArgumentException("'" + field + "' holds something other than text");
			}
			list.add(element.asString());
		}
		return list;
	}

	private static @Nullable Instant instant(JsonNode json, String field) {
		String text = text(json, field);
		if (text == null) {
			return null;
		}
		try {
			return Instant.parse(text);
		}
		catch (DateTimeParseException ex) {
			throw new IllegalArgumentException("'" + field + "' is not an ISO-8601 instant: " + text);
		}
	}

}
