package dev.agcore.message;

import java.net.URI;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * An image, PDF or other file attached to a {@link UserMessage}: either a URL the
 * provider fetches, or the bytes themselves. Providers that cannot take a kind of media
 * fail the request with a {@link dev.agcore.model.ModelRequestException} naming it.
 *
 * @param mediaType the media type, such as {@code image/png} or {@code application/pdf}
 * @param url where the provider can fetch the content, null when {@code data} is given
 * @param data the content, null when {@code url} is given
 * @param fileName the file name, for providers that show one; may be null
 */
public record Media(String mediaType, @Nullable URI url, byte @Nullable [] data, @Nullable String fileName) {

	public Media {
		Objects.requireNonNull(mediaType, "'mediaType' must not be null");
		if (mediaType.isBlank() || mediaType.indexOf('/') < 1) {
			throw new IllegalArgumentException("'mediaType' must be a media type such as image/png (was '"
					+ mediaType + "')");
		}
		mediaType = mediaType.strip().toLowerCase(Locale.ROOT);
		if ((url == null) == (data == null)) {
			throw new IllegalArgumentException("Exactly one of 'url' and 'data' must be given");
		}
		data = (data != null) ? data.clone() : null;
	}

	public static Media url(URI url, String mediaType) {
		return new Media(mediaType, url, null, null);
	}

	public static Media bytes(byte[] data, String mediaType) {
		return new Media(mediaType, null, data, null);
	}

	/** Return whether this is an image. */
	public boolean isImage() {
		return this.mediaType.startsWith("image/");
	}

	/** Return whether this is a PDF document. */
	public boolean isPdf() {
		return this.mediaType.equals("application/pdf");
	}

	/**
	 * Return the bytes as base64, as most APIs take them.
	 * @return the base64 text
	 * @throws IllegalStateException if this media is a URL
	 */
	public String base64() {
		if (this.data == null) {
			throw new IllegalStateException("This media is a URL, not bytes");
		}
		return Base64.getEncoder().encodeToString(this.data);
	}

	/**
	 * Return the bytes.
	 * @return a copy of the bytes, null for a URL
	 */
	@Override
	public byte @Nullable [] data() {
		return (this.data != null) ? this.data.clone() : null;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return other instanceof Media that && this.mediaType.equals(that.mediaType)
				&& Objects.equals(this.url, that.url) && Arrays.equals(this.data, that.data)
				&& Objects.equals(this.fileName, that.fileName);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.mediaType, this.url, Arrays.hashCode(this.data), this.fileName);
	}

	@Override
	public String toString() {
		return "Media[" + this.mediaType + ", " + ((this.url != null) ? this.url : this.data.length + " bytes") + "]";
	}

}
