package dev.agcore.model.xml;

import java.util.ArrayList;
import java.util.List;

import dev.agcore.message.ToolCall;

/**
 * Parses {@code <use_tool>} blocks out of a model's text as it streams, for models that
 * write tool calls as text:
 *
 * <pre class="code">
 * &lt;use_tool&gt;
 * &lt;name&gt;get_weather&lt;/name&gt;
 * &lt;args&gt;{"city": "Paris"}&lt;/args&gt;
 * &lt;/use_tool&gt;
 * </pre>
 *
 * Prose is released as soon as it cannot be the start of a block; what may be (a trailing
 * {@code <}, {@code <use_}, a code fence whose first line is not over yet) is held back
 * until it is decided, so a tag never reaches the prose. A whole block becomes a
 * {@link ToolCall} (see {@link XmlToolCallBlock}), with the code fence around it and the
 * whitespace around it removed; prose on both sides of removed blocks is kept apart by
 * a line break. A block still open when the
 * text ends, or one without a name, stays text. Feeding a text in any split gives the
 * same result as {@link #parse parsing} it whole. Not thread-safe: one per stream.
 */
public final class XmlToolCallStream {

	static final String OPEN = "<use_tool";

	static final String CLOSE = "</use_tool>";

	private static final String FENCE = "```";

	/** The most characters of a fence line (backticks, language, blank) held back. */
	private static final int MAX_FENCE_PREFIX = 32;

	private static final int NONE = -1;

	private static final int PARTIAL = -2;

	/** Text held back: trailing blanks and a possible start in prose, the open block in a block. */
	private final StringBuilder pending = new StringBuilder();

	private State state = State.PROSE;

	/** The current or last block was opened by a code fence, which a closing fence ends. */
	private boolean fenced;

	/** In a block: the characters before its {@code <use_tool}: blanks and a fence line. */
	private int fencePrefix;

	private int nextId;

	/** Some prose was released before this piece. */
	private boolean spoke;

	/** Blocks were removed after prose: the next prose starts on a new line. */
	private boolean separate;

	/**
	 * Create a parser whose calls are numbered {@code xml_1}, {@code xml_2}, ...
	 */
	public XmlToolCallStream() {
		this(1);
	}

	/**
	 * Create a parser whose calls are numbered from {@code firstId}, so that ids stay
	 * unique across the responses of one conversation.
	 * @param firstId the number of the first call's id ({@code xml_<firstId>})
	 */
	public XmlToolCallStream(int firstId) {
		this.nextId = firstId;
	}

	/**
	 * Parse a whole text.
	 * @param text the text
	 * @param firstId the number of the first call's id
	 * @return the prose and the calls
	 */
	public static Result parse(String text, int firstId) {
		XmlToolCallStream stream = new XmlToolCallStream(firstId);
		return stream.feed(text).append(stream.finish());
	}

	/**
	 * Parse the next piece of text.
	 * @param delta the text
	 * @return the prose that is certain now and the calls completed by it
	 */
	public Result feed(String delta) {
		if (this.state == State.PROSE && this.pending.length() == 0 && !this.separate && isPlain(delta)) {
			this.spoke |= !delta.isEmpty();
			return new Result(delta, List.of());
		}
		String text = this.pending.append(delta).toString();
		this.pending.setLength(0);
		StringBuilder prose = new StringBuilder(text.length());
		List<ToolCall> calls = new ArrayList<>(1);
		int position = 0;
		while (position < text.length()) {
			position = switch (this.state) {
				case PROSE -> prose(text, position, prose);
				case BLOCK -> block(text, position, prose, calls);
				case AFTER -> after(text, position, prose);
			};
		}
		this.spoke |= prose.length() > 0;
		return new Result(prose.toString(), calls);
	}

	/**
	 * End the text: held-back prose and a block left open are text after all; a partial
	 * closing fence after a block goes.
	 * @return the last prose
	 */
	public Result finish() {
		String rest = (this.state == State.AFTER) ? "" : this.pending.toString();
		this.pending.setLength(0);
		this.state = State.PROSE;
		this.fenced = false;
		return new Result(rest, List.of());
	}

	private static boolean isPlain(String delta) {
		return delta.indexOf('<') < 0 && delta.indexOf('`') < 0
				&& (delta.isEmpty() || !Character.isWhitespace(delta.charAt(delta.length() - 1)));
	}

	/** Prose up to the next block: released, except trailing blanks and a possible start. */
	private int prose(String text, int position, StringBuilder prose) {
		for (int i = position; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c != '<' && c != '`') {
				continue;
			}
			int prefix = blockStart(text, i);
			if (prefix == NONE) {
				continue;
			}
			if (prefix == PARTIAL) {
				release(text.substring(position, i), prose);
				this.pending.append(text, i, text.length());
				return text.length();
			}
			// the blanks before a block go with it (and come back if it stays open)
			int blanks = trailingBlanks(text, position, i);
			say(text, position, i - blanks, prose);
			this.state = State.BLOCK;
			this.fenced = prefix > 0;
			this.fencePrefix = blanks + prefix;
			return i - blanks;
		}
		release(text.substring(position), prose);
		return text.length();
	}

	/** Release prose, holding back its trailing blanks in case a block follows them. */
	private void release(String text, StringBuilder prose) {
		int blanks = trailingBlanks(text, 0, text.length());
		say(text, 0, text.length() - blanks, prose);
		this.pending.append(text, text.length() - blanks, text.length());
	}

	private void say(String text, int start, int end, StringBuilder prose) {
		if (start < end && this.separate) {
			prose.append('\n');
			this.separate = false;
		}
		prose.append(text, start, end);
	}

	/** A block, from its fence or tag: a call once closed, else held back. */
	private int block(String text, int position, StringBuilder prose, List<ToolCall> calls) {
		int open = position + this.fencePrefix;
		int close = XmlToolCallBlock.indexOutsideCdata(text, CLOSE, open + OPEN.length());
		if (close < 0) {
			this.pending.append(text, position, text.length());
			return text.length();
		}
		int end = close + CLOSE.length();
		ToolCall call = XmlToolCallBlock.parse(text.substring(open, end), "xml_" + this.nextId);
		if (call == null) {
			// not a call after all: its text is prose
			say(text, position, end, prose);
			this.state = State.PROSE;
			this.fenced = false;
			return end;
		}
		this.nextId++;
		calls.add(call);
		this.state = State.AFTER;
		return end;
	}

	/** After a block: blanks and the closing fence of a fenced block go. */
	private int after(String text, int position, StringBuilder prose) {
		int i = position;
		while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
			i++;
		}
		if (i == text.length()) {
			return i;
		}
		if (this.fenced) {
			int matched = matched(text, i, FENCE);
			if (matched < FENCE.length() && i + matched == text.length()) {
				this.pending.append(text, i, text.length());
				return text.length();
			}
			this.fenced = false;
			if (matched == FENCE.length()) {
				// blanks after the closing fence go too
				return i + FENCE.length();
			}
		}
		// prose on both sides of removed blocks is kept apart, once there is prose after them
		this.separate = prose.length() > 0 || this.spoke;
		this.state = State.PROSE;
		return i;
	}

	/**
	 * Whether a block starts at a position: the length of the fence line before its tag
	 * (0 for a tag), {@link #PARTIAL} when the text ends before that is known, else
	 * {@link #NONE}.
	 */
	private static int blockStart(String text, int start) {
		if (text.charAt(start) == '<') {
			return tag(text, start);
		}
		int matched = matched(text, start, FENCE);
		if (matched < FENCE.length()) {
			return (start + matched == text.length()) ? PARTIAL : NONE;
		}
		int i = start + FENCE.length();
		while (i < text.length() && i - start < MAX_FENCE_PREFIX && isLanguage(text.charAt(i))) {
			i++;
		}
		while (i < text.length() && i - start < MAX_FENCE_PREFIX && Character.isWhitespace(text.charAt(i))) {
			i++;
		}
		if (i - start >= MAX_FENCE_PREFIX) {
			return NONE;
		}
		if (i == text.length()) {
			return PARTIAL;
		}
		int tag = (text.charAt(i) == '<') ? tag(text, i) : NONE;
		return (tag == 0) ? i - start : tag;
	}

	/** Whether the opening tag starts at a position: 0, {@link #PARTIAL} or {@link #NONE}. */
	private static int tag(String text, int start) {
		int matched = matched(text, start, OPEN);
		int end = start + matched;
		if (matched < OPEN.length()) {
			return (end == text.length()) ? PARTIAL : NONE;
		}
		if (end == text.length()) {
			return PARTIAL;
		}
		char next = text.charAt(end);
		return (next == '>' || Character.isWhitespace(next)) ? 0 : NONE;
	}

	/** How many characters of a token the text matches from a position. */
	private static int matched(String text, int start, String token) {
		int length = 0;
		while (length < token.length() && start + length < text.length()
				&& text.charAt(start + length) == token.charAt(length)) {
			length++;
		}
		return length;
	}

	private static int trailingBlanks(String text, int from, int to) {
		int i = to;
		while (i > from && Character.isWhitespace(text.charAt(i - 1))) {
			i--;
		}
		return to - i;
	}

	private static boolean isLanguage(char c) {
		return Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '+';
	}

	private enum State {

		/** Plain text. */
		PROSE,
		/** Inside a block, or the fence line before one. */
		BLOCK,
		/** Just after a block. */
		AFTER

	}

	/**
	 * What one piece of text gave.
	 *
	 * @param text the prose, without blocks
	 * @param calls the calls completed, in order
	 */
	public record Result(String text, List<ToolCall> calls) {

		public Result {
			calls = List.copyOf(calls);
		}

		/**
		 * Return this result followed by another.
		 * @param next the later result
		 * @return both
		 */
		public Result append(Result next) {
			if (next.text.isEmpty() && next.calls.isEmpty()) {
				return this;
			}
			List<ToolCall> all = new ArrayList<>(this.calls);
			all.addAll(next.calls);
			return new Result(this.text + next.text, all);
		}

	}

}
