package dev.agcore.provider.anthropic.wire;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import org.jspecify.annotations.Nullable;

/**
 * The {@code error} object of an error body or {@code error} event.
 *
 * @param type the error type, such as {@code overloaded_error}
 * @param message the message
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record WireError(@Nullable String type, @Nullable String message) {

}
