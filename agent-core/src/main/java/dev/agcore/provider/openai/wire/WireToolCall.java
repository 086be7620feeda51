package dev.agcore.provider.openai.wire;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * A tool call, complete in requests and responses, or a fragment of one in a streamed
 * delta, where only {@code index} is reliable.
 *
 * @param index the position of the call, in streamed deltas only
 * @param id the call id; in a stream often on the first fragment only
 * @param type always {@code function}
 * @param function the function name and arguments
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record WireToolCall(@Nullable Integer index, @Nullable String id, @Nullable String type,
		@Nullable Function function) {

	public static WireToolCall of(String id, String name, String arguments) {
		return new WireToolCall(null, id, "function", new Function(name, arguments));
	}

	/**
	 * The function of a tool call.
	 *
	 * @param name the tool name
	 * @param arguments the arguments as JSON text (a fragment of it in a stream)
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record Function(@Nullable String name, @Nullable String arguments) {

	}

}
