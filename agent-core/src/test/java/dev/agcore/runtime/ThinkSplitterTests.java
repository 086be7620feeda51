package dev.agcore.runtime;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ThinkSplitter}.
 */
class ThinkSplitterTests {

	@Test
	void aLeadingBlockIsReasoningAndTheWhitespaceAfterItGoes() {
		assertThat(ThinkSplitter.split("<think>Let me see.</think>\n\nParis."))
			.containsExactly(new ThinkSplitter.Piece(true, "Let me see.", 0), new ThinkSplitter.Piece(false, "Paris.", -1));
	}

	@Test
	void plainTextPassesAsItIsOnlyWhenNothingIsHeldBackOrOpen() {
		ThinkSplitter splitter = new ThinkSplitter();
		assertThat(splitter.plain("Hello ")).isEqualTo("Hello ");
		assertThat(splitter.plain("a < b")).isNull();
		splitter.feed("<thi");
		// a possible tag is held back: the next text must be fed
		assertThat(splitter.plain("nk>")).isNull();
		splitter.feed("nk>reasoning");
		assertThat(splitter.plain("more")).isNull();
		splitter.feed("</think>");
		// whitespace after a block still goes
		assertThat(splitter.plain(" answer")).isNull();
		assertThat(splitter.feed(" answer")).containsExactly(new ThinkSplitter.Piece(false, "answer", -1));
		assertThat(splitter.plain(" and more")).isEqualTo(" and more");
	}

	@Test
	void textWithoutTagsIsText() {
		assertThat(ThinkSplitter.split("a < b and b > c")).containsExactly(new ThinkSplitter.Piece(false, "a < b and b > c", -1));
	}

	@Test
	void tagsSplitAcrossEveryPossibleChunkBoundaryGiveTheSameResult() {
		String text = "<think>one</think>Answer <b>bold</b><think>two</think> end";
		for (int size = 1; size <= text.length(); size++) {
			ThinkSplitter splitter = new ThinkSplitter();
			List<ThinkSplitter.Piece> pieces = new ArrayList<>();
			for (int start = 0; start < text.length(); start += size) {
				pieces.addAll(splitter.feed(text.substring(start, Math.min(text.length(), start + size))));
			}
			pieces.addAll(splitter.finish());
			assertThat(joined(pieces, false)).as("chunks of %d", size).isEqualTo("Answer <b>bold</b>end");
			assertThat(joined(pieces, true)).as("chunks of %d", size).isEqualTo("one|two");
		}
	}

	@Test
	void aPartialTagIsHeldBackUntilItIsWholeOrNotATag() {
		ThinkSplitter splitter = new ThinkSplitter();
		assertThat(splitter.feed("Hi <thi")).containsExactly(new ThinkSplitter.Piece(false, "Hi ", -1));
		assertThat(splitter.feed("s is not a tag")).containsExactly(new ThinkSplitter.Piece(false, "<this is not a tag", -1));
		assertThat(splitter.feed("<")).isEmpty();
		assertThat(splitter.finish()).containsExactly(new ThinkSplitter.Piece(false, "<", -1));
	}

	@Test
	void aBlockLeftOpenIsReasoning() {
		ThinkSplitter splitter = new ThinkSplitter();
		assertThat(splitter.feed("<think>still thinking")).containsExactly(new ThinkSplitter.Piece(true, "still thinking", 0));
		assertThat(splitter.feed("</thi")).isEmpty();
		assertThat(splitter.finish()).containsExactly(new ThinkSplitter.Piece(true, "</thi", 0));
	}

	private static String joined(List<ThinkSplitter.Piece> pieces, boolean reasoning) {
		StringBuilder text = new StringBuilder();
		int block = -1;
		for (ThinkSplitter.Piece piece : pieces) {
			if (piece.reasoning() == reasoning) {
				if (reasoning && piece.block() != block && block >= 0) {
					text.append('|');
				}
				block = piece.block();
				text.append(piece.text());
			}
		}
		return text.toString();
	}

}
