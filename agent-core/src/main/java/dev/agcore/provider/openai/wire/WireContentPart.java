package dev.agcore.provider.openai.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * One part of a user message's content: text, an image or a file.
 *
 * @param type {@code text}, {@code image_url} or {@code file}
 * @param text the text of a {@code text} part
 * @param imageUrl the image of an {@code image_url} part
 * @param file the file of a {@code file} part
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WireContentPart(String type, @Nullable String text,
		@JsonProperty("image_url") @Nullable ImageUrl imageUrl, @Nullable File file) {

	static WireContentPart text(String text) {
		return new WireContentPart("text", text, null, null);
	}

	static WireContentPart image(String url) {
		return new WireContentPart("image_url", null, new ImageUrl(url), null);
	}

	static WireContentPart file(@Nullable String fileName, String fileData) {
		return new WireContentPart("file", null, null, new File(fileName, fileData));
	}

	/**
	 * An image by URL, which may be a {@code data:} URL.
	 *
	 * @param url the URL
	 */
	public record ImageUrl(String url) {

	}

	/**
	 * A file sent inline.
	 *
	 * @param filename the file name
	 * @param fileData a {@code data:} URL holding the bytes
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record File(@Nullable String filename, @JsonProperty("file_data") String fileData) {

	}

}
