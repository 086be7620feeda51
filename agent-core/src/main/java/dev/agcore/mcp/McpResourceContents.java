package dev.agcore.mcp;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What reading an MCP resource returned: text, or binary data in base64.
 *
 * @param uri the URI of this part (a resource may return several)
 * @param mimeType its media type, or {@code null}
 * @param text its text, or {@code null} for binary data
 * @param blob its binary data in base64, or {@code null} for text
 * @since 0.1.0
 */
public record McpResourceContents(String uri, @Nullable String mimeType, @Nullable String text,
		@Nullable String blob) {

	public McpResourceContents {
		Objects.requireNonNull(uri, "'uri' must not be null");
	}

	/**
	 * Return whether this part is text.
	 * @return whether {@link #text()} holds it
	 */
	public boolean isText() {
		return this.text != null;
	}

}
