package dev.agcore.runtime;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Splits {@code <think>...</think>} blocks out of a model's plain text, as reasoning
 * models served through plain chat APIs write them (DeepSeek-R1, Qwen, an Ollama model
 * without {@code think}). Streaming-safe: a tag split across chunks is held back until it
 * is whole, and what it holds back is bounded by the tag's length. Every block is split
 * out, not only a leading one; whitespace between a closing tag and the answer is
 * dropped. A block left open when the text ends is reasoning. Not thread-safe: one per
 * stream.
 */
final class ThinkSplitter {

	static final String OPEN = "<think>";

	static final String CLOSE = "</think>";

	private final StringBuilder pending = new StringBuilder(CLOSE.length());

	private boolean inThink;

	/** After a closing tag: whitespace before the answer goes. */
	private boolean trimLeading;

	/** Blocks started so far; the current block is {@code blocks - 1}. */
	private int blocks;

	/**
	 * Return a piece of text as it is if it holds no tag and nothing is held back or
	 * open: the common case of a chunk of plain text, told without a list of pieces.
	 * @param delta the text
	 * @return the text, or null when it must be {@linkplain #feed fed}
	 */
	@Nullable String plain(String delta) {
		if (this.pending.length() == 0 && !this.inThink && !this.trimLeading && delta.indexOf('<') < 0) {
			return delta;
		}
		return null;
	}

	/**
	 * Split one piece of text.
	 * @param delta the text
	 * @return the pieces, in order; empty while a possible tag is held back
	 */
	List<Piece> feed(String delta) {
		if (this.pending.length() == 0 && !this.inThink && delta.indexOf('<') < 0) {
			// the common case: plain text without any tag
			List<Piece> pieces = new ArrayList<>(1);
			emit(pieces, false, delta);
			return pieces;
		}
		String text = this.pending.append(delta).toString();
		this.pending.setLength(0);
		List<Piece> pieces = new ArrayList<>(2);
		int position = 0;
		while (position < text.length()) {
			String tag = this.inThink ? CLOSE : OPEN;
			int found = text.indexOf(tag, position);
			if (found >= 0) {
				emit(pieces, this.inThink, text.substring(position, found));
				position = found + tag.length();
				this.inThink = !this.inThink;
				if (this.inThink) {
					this.blocks++;
				}
				else {
					this.trimLeading = true;
				}
				continue;
			}
			int held = partialTagAtEnd(text, position, tag);
			emit(pieces, this.inThink, text.substring(position, text.length() - held));
			this.pending.append(text, text.length() - held, text.length());
			break;
		}
		return pieces;
	}

	/**
	 * End the text: what was held back is text after all (or reasoning, in an open block).
	 * @return the last pieces
	 */
	List<Piece> finish() {
		List<Piece> pieces = new ArrayList<>(1);
		emit(pieces, this.inThink, this.pending.toString());
		this.pending.setLength(0);
		return pieces;
	}

	/**
	 * Split a whole text.
	 * @param text the text
	 * @return the pieces
	 */
	static List<Piece> split(String text) {
		ThinkSplitter splitter = new ThinkSplitter();
		List<Piece> pieces = new ArrayList<>(splitter.feed(text));
		pieces.addAll(splitter.finish());
		return pieces;
	}

	/** The length of the longest end of the text that begins the tag. */
	private static int partialTagAtEnd(String text, int from, String tag) {
		int longest = Math.min(tag.length() - 1, text.length() - from);
		for (int length = longest; length > 0; length--) {
			if (text.startsWith(tag.substring(0, length), text.length() - length)) {
				return length;
			}
		}
		return 0;
	}

	private void emit(List<Piece> pieces, boolean reasoning, String text) {
		if (!reasoning && this.trimLeading) {
			text = text.stripLeading();
			if (text.isEmpty()) {
				return;
			}
			this.trimLeading = false;
		}
		if (!text.isEmpty()) {
			pieces.add(new Piece(reasoning, text, reasoning ? this.blocks - 1 : -1));
		}
	}

	/**
	 * A piece of text or of reasoning.
	 *
	 * @param reasoning whether the piece is reasoning
	 * @param text the text
	 * @param block the reasoning block, counted from 0; -1 for text
	 */
	record Piece(boolean reasoning, String text, int block) {

	}

}
