package dev.agcore.mcp;

import java.util.List;
import java.util.Locale;

import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns the content of MCP results into text for the model, which sees text only in tool
 * results today:
 * <ul>
 * <li>text as it is;</li>
 * <li>an image or audio clip as a note, {@code [image image/png, 1234 bytes]};</li>
 * <li>an embedded text resource as {@code [resource <uri>]} followed by its text; a
 * binary one as a note with its size;</li>
 * <li>a resource link as {@code [resource link <uri> "<name>"]} and its description;</li>
 * <li>structured content, as JSON, when there is no text.</li>
 * </ul>
 * Parts are joined with new lines, and the whole is cut to {@value #MAX_LENGTH}
 * characters (the agent's own, smaller, bound applies after).
 */
final class McpContentText {

	/** The longest text made of one result. */
	static final int MAX_LENGTH = 1_000_000;

	private McpContentText() {
	}

	static String of(McpSchema.CallToolResult result, JsonMapper mapper) {
		StringBuilder text = new StringBuilder();
		List<McpSchema.Content> content = (result.content() != null) ? result.content() : List.of();
		for (McpSchema.Content part : content) {
			append(text, part);
		}
		if (text.isEmpty() && result.structuredContent() != null) {
			text.append(mapper.writeValueAsString(result.structuredContent()));
		}
		return bounded(text);
	}

	static void append(StringBuilder text, McpSchema.Content part) {
		String piece;
		if (part instanceof McpSchema.TextContent textContent) {
			piece = (textContent.text() != null) ? textContent.text() : "";
		}
		else if (part instanceof McpSchema.ImageContent image) {
			piece = note("image", image.mimeType(), image.data());
		}
		else if (part instanceof McpSchema.AudioContent audio) {
			piece = note("audio", audio.mimeType(), audio.data());
		}
		else if (part instanceof McpSchema.EmbeddedResource embedded) {
			piece = resource(embedded.resource());
		}
		else if (part instanceof McpSchema.ResourceLink link) {
			piece = "[resource link " + link.uri() + ((link.name() != null) ? " \"" + link.name() + "\"" : "") + "]"
					+ ((link.description() != null) ? " " + link.description() : "");
		}
		else {
			piece = "[" + part.type() + " content]";
		}
		if (!text.isEmpty()) {
			text.append('\n');
		}
		text.append(piece);
	}

	/** A resource's text under a line naming it, or a note for a binary one. */
	static String resource(McpSchema.ResourceContents contents) {
		if (contents instanceof McpSchema.TextResourceContents text) {
			return "[resource " + text.uri() + "]\n" + ((text.text() != null) ? text.text() : "");
		}
		String blob = (contents instanceof McpSchema.BlobResourceContents binary) ? binary.blob() : null;
		return note("resource " + contents.uri(), contents.mimeType(), blob);
	}

	private static String note(String what, @Nullable String mimeType, @Nullable String base64) {
		String type = (mimeType != null) ? " " + mimeType.toLowerCase(Locale.ROOT) : "";
		return "[" + what + type + ", " + decodedLength(base64) + " bytes]";
	}

	/** The number of bytes a base64 text decodes to, without decoding it. */
	static long decodedLength(@Nullable String base64) {
		if (base64 == null) {
			return 0;
		}
		int length = base64.length();
		int padding = 0;
		while (padding < 2 && length - padding > 0 && base64.charAt(length - 1 - padding) == '=') {
			padding++;
		}
		return (long) length * 3 / 4 - padding;
	}

	static String bounded(StringBuilder text) {
		if (text.length() <= MAX_LENGTH) {
			return text.toString();
		}
		int end = MAX_LENGTH;
		if (Character.isHighSurrogate(text.charAt(end - 1))) {
			end--;
		}
		return text.substring(0, end) + "\n[truncated: the MCP result was " + text.length() + " characters long]";
	}

}
