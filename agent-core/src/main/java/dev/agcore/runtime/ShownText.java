package dev.agcore.runtime;

import org.jspecify.annotations.Nullable;

/**
 * What the caller was shown of one model response while it streamed: whether any text,
 * and, once the stream ended, the response's text, which is what was shown. Not a copy of
 * the text as it grows: the accumulator already keeps it. Confined to one model call of
 * a turn.
 */
final class ShownText {

	private boolean any;

	private @Nullable String whole;

	/** Some text of the response was shown. */
	void showed() {
		this.any = true;
	}

	/** The stream ended with this text, all of which was shown if any was. */
	void ended(String text) {
		if (this.any) {
			this.whole = text;
		}
	}

	boolean isEmpty() {
		return !this.any;
	}

	/** The text shown is void: the model is called again. */
	void reset() {
		this.any = false;
		this.whole = null;
	}

	/**
	 * Return whether the caller was shown exactly this text.
	 * @param text the response's text as middleware left it
	 * @return whether it is what was shown
	 */
	boolean matches(String text) {
		return this.any ? text.equals(this.whole) : text.isEmpty();
	}

}
