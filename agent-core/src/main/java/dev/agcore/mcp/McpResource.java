package dev.agcore.mcp;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A resource an MCP server offers, as {@code resources/list} describes it.
 *
 * @param uri the resource's URI, which {@link McpConnection#readResource} takes
 * @param name its name
 * @param title a name for people, or {@code null}
 * @param description what it holds, or {@code null}
 * @param mimeType its media type, or {@code null}
 * @since 0.1.0
 */
public record McpResource(String uri, String name, @Nullable String title, @Nullable String description,
		@Nullable String mimeType) {

	public McpResource {
		Objects.requireNonNull(uri, "'uri' must not be null");
		Objects.requireNonNull(name, "'name' must not be null");
	}

}
