package dev.agcore.provider.anthropic.wire;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * The data of one server-sent event of a stream; which components are present depends on
 * {@code type}.
 *
 * @param type {@code message_start}, {@code content_block_start},
 * {@code content_block_delta}, {@code content_block_stop}, {@code message_delta},
 * {@code message_stop}, {@code ping} or {@code error}
 * @param index the content block of the {@code content_block_*} events
 * @param message the message of {@code message_start}
 * @param contentBlock the block {@code content_block_start} opens
 * @param delta the change of {@code content_block_delta} and {@code message_delta}
 * @param usage the cumulative counts of {@code message_delta}
 * @param error the error of an {@code error} event
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record StreamEvent(@Nullable String type, @Nullable Integer index, @Nullable MessagesResponse message,
		@JsonProperty("content_block") @Nullable ContentBlock contentBlock, @Nullable Delta delta,
		@Nullable WireUsage usage, @Nullable WireError error) {

	/**
	 * The change a delta event carries.
	 *
	 * @param type {@code text_delta}, {@code input_json_delta}, {@code thinking_delta} or
	 * {@code signature_delta}; absent in {@code message_delta}
	 * @param text more text
	 * @param partialJson more argument JSON text
	 * @param thinking more reasoning text
	 * @param signature the thinking block's signature
	 * @param stopReason why the model stopped, in {@code message_delta}
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record Delta(@Nullable String type, @Nullable String text,
			@JsonProperty("partial_json") @Nullable String partialJson, @Nullable String thinking,
			@Nullable String signature, @JsonProperty("stop_reason") @Nullable String stopReason) {

	}

}
