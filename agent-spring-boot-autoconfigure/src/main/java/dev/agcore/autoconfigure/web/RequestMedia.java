package dev.agcore.autoconfigure.web;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

import dev.agcore.message.Media;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Reads the {@code media} field of an invoke or stream request body: images and files
 * sent with the message, each {@code {"mediaType": "image/png", "url": "https://..."}} or
 * {@code {"mediaType": "image/png", "data": "<base64>"}}, with an optional
 * {@code fileName}. A bad entry is a 400 naming it.
 */
final class RequestMedia {

	/** The most media one message may carry. */
	static final int MAX_ITEMS = 16;

	private RequestMedia() {
	}

	static List<Media> read(@Nullable JsonNode media) {
		if (media == null || media.isNull()) {
			return List.of();
		}
		if (!media.isArray()) {
			throw AgentHandler.badRequest("'media' must be an array of {mediaType, url or data}");
		}
		if (media.size() > MAX_ITEMS) {
			throw AgentHandler.badRequest("'media' may hold at most " + MAX_ITEMS + " items, had " + media.size());
		}
		List<Media> read = new ArrayList<>(media.size());
		for (int i = 0; i < media.size(); i++) {
			read.add(item("media[" + i + "]", media.get(i)));
		}
		return read;
	}

	private static Media item(String field, JsonNode item) {
		if (!item.isObject()) {
			throw AgentHandler.badRequest("'" + field + "' must be an object {mediaType, url or data}");
		}
		String mediaType = text(item, field, "mediaType");
		if (mediaType == null || mediaType.indexOf('/') < 1 || mediaType.length() > 100) {
			throw AgentHandler.badRequest("'" + field + ".mediaType' must be a media type such as image/png");
		}
		String url = text(item, field, "url");
		String data = text(item, field, "data");
		String fileName = text(item, field, "fileName");
		if ((url == null) == (data == null)) {
			throw AgentHandler.badRequest("'" + field + "' must have exactly one of 'url' and 'data'");
		}
		if (url != null) {
			return new Media(mediaType, uri(field, url), null, fileName);
		}
		try {
			return new Media(mediaType, null, Base64.getDecoder().decode(data), fileName);
		}
		catch (IllegalArgumentException ex) {
			throw AgentHandler.badRequest("'" + field + ".data' must be base64: " + ex.getMessage());
		}
	}

	private static URI uri(String field, String url) {
		String scheme = url.toLowerCase(Locale.ROOT);
		if (!scheme.startsWith("https://") && !scheme.startsWith("http://")) {
			throw AgentHandler.badRequest("'" + field + ".url' must be an http:// or https:// URL");
		}
		try {
			return new URI(url);
		}
		catch (URISyntaxException ex) {
			throw AgentHandler.badRequest("'" + field + ".url' is not a valid URL: " + ex.getReason());
		}
	}

	private static @Nullable String text(JsonNode item, String field, String name) {
		JsonNode value = item.get(name);
		if (value == null || value.isNull()) {
			return null;
		}
		if (!value.isString() || value.asString().isBlank()) {
			throw AgentHandler.badRequest("'" + field + "." + name + "' must be a non-blank string");
		}
		return value.asString().strip();
	}

}
