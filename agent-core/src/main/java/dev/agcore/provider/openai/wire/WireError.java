package dev.agcore.provider.openai.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import org.jspecify.annotations.Nullable;

/**
 * An error object, {@code {"message","type","code","param"}}, or a plain string as some
 * servers send.
 *
 * @param message what went wrong
 * @param type the error type, such as {@code server_error}
 * @param code a string or numeric code, such as {@code context_length_exceeded}
 * @param param the request parameter at fault
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record WireError(@Nullable String message, @Nullable String type, @Nullable Object code,
		@Nullable String param) {

	@JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
	public WireError {
	}

	@JsonCreator(mode = JsonCreator.Mode.DELEGATING)
	static WireError of(String message) {
		return new WireError(message, null, null, null);
	}

}
