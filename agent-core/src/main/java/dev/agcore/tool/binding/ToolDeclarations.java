package dev.agcore.tool.binding;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;

import dev.agcore.tool.ToolDefinitionException;
import dev.agcore.tool.ToolPermission;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.util.StringUtils;

/**
 * Checks shared by every way of declaring a tool: names, permissions, timeouts, secret
 * parameters, and how results become text. Failures are {@link ToolDefinitionException}s
 * worded for the tool's author.
 */
public final class ToolDeclarations {

	// what the OpenAI, Anthropic and Gemini APIs all accept as a function name
	private static final Pattern TOOL_NAME = Pattern.compile("[a-zA-Z0-9_-]{1,64}");

	private ToolDeclarations() {
	}

	/**
	 * Check a tool name.
	 * @param name the name
	 * @return the name
	 */
	public static String checkName(String name) {
		if (!TOOL_NAME.matcher(name).matches()) {
			throw new ToolDefinitionException("tool name '" + name + "' must be 1 to 64 letters, digits, '_' or '-'");
		}
		return name;
	}

	/**
	 * Parse a permission.
	 * @param permission the permission text
	 * @return the permission
	 */
	public static ToolPermission permission(String permission) {
		try {
			return ToolPermission.of(permission);
		}
		catch (IllegalArgumentException ex) {
			throw new ToolDefinitionException(ex.getMessage(), ex);
		}
	}

	/**
	 * Parse a timeout such as {@code 10s}, {@code 500ms} or {@code PT2M}.
	 * @param timeout the timeout text; empty for none
	 * @return the timeout, or {@code null}
	 */
	public static @Nullable Duration timeout(String timeout) {
		if (!StringUtils.hasText(timeout)) {
			return null;
		}
		Duration duration;
		try {
			duration = DurationFormatterUtils.detectAndParse(timeout.strip());
		}
		catch (IllegalArgumentException | DateTimeParseException ex) {
			throw new ToolDefinitionException("timeout '" + timeout + "' is not a duration such as '10s' or 'PT10S'",
					ex);
		}
		if (duration.isNegative() || duration.isZero()) {
			throw new ToolDefinitionException("timeout '" + timeout + "' must be positive");
		}
		return duration;
	}

	/**
	 * Check that the parameters declared eligible for secret references exist.
	 * @param secrets the declared parameter names
	 * @param parameters the names the model fills
	 * @return the declared names
	 */
	public static Set<String> secretParameters(Collection<String> secrets, Collection<String> parameters) {
		Set<String> declared = new LinkedHashSet<>(secrets);
		for (String secret : declared) {
			if (!parameters.contains(secret)) {
				throw new ToolDefinitionException("secrets names '" + secret + "', which is not a parameter; parameters: "
						+ parameters);
			}
		}
		return declared;
	}

	/**
	 * Return the parameter names of an arguments schema.
	 * @param schema the object schema
	 * @return the top-level property names
	 */
	public static Set<String> parameterNames(JsonNode schema) {
		return new LinkedHashSet<>(schema.path("properties").propertyNames());
	}

	/**
	 * Turn what a tool returned into the text sent to the model: a {@link CharSequence} as
	 * is, {@code null} as {@code ""}, anything else as JSON.
	 * @param result the result
	 * @param mapper the mapper to write JSON with
	 * @return the text
	 */
	public static String resultText(@Nullable Object result, JsonMapper mapper) {
		if (result == null) {
			return "";
		}
		if (result instanceof CharSequence text) {
			return text.toString();
		}
		return mapper.writeValueAsString(result);
	}

}
