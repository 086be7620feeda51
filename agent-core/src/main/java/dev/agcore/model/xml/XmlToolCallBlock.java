package dev.agcore.model.xml;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.agcore.message.ToolCall;
import org.jspecify.annotations.Nullable;

/**
 * One whole {@code <use_tool>...</use_tool>} block, read leniently: the {@code name} and
 * {@code args} elements in any order, blanks and unknown elements around them ignored,
 * CDATA and the five XML entities understood, a code fence inside {@code args} removed.
 * The arguments are passed on as written even when they are not JSON: the tool then
 * reports them as invalid and the model can correct itself.
 */
final class XmlToolCallBlock {

	private static final String CDATA_OPEN = "<![CDATA[";

	private static final String CDATA_CLOSE = "]]>";

	private static final Pattern NAME = start("name");

	private static final Pattern ARGS = start("args|arguments");

	private XmlToolCallBlock() {
	}

	/**
	 * Read a block.
	 * @param block the block, from {@code <use_tool} to {@code </use_tool>}
	 * @param id the id to give the call
	 * @return the call, or null when the block names no tool
	 */
	static @Nullable ToolCall parse(String block, String id) {
		int open = block.indexOf('>');
		String inner = block.substring(open + 1, block.length() - XmlToolCallStream.CLOSE.length());
		String arguments = "";
		Element args = element(inner, ARGS);
		if (args != null) {
			arguments = unfence(value(args.content()));
			// a name-like tag inside the arguments is not the name
			inner = inner.substring(0, args.start()) + inner.substring(args.end());
		}
		Element name = element(inner, NAME);
		String toolName = (name != null) ? value(name.content()) : "";
		if (toolName.isEmpty()) {
			return null;
		}
		return new ToolCall(id, toolName, arguments);
	}

	/**
	 * Find a string outside CDATA sections.
	 * @param text the text
	 * @param target the string
	 * @param from where to start
	 * @return its index, or -1 when it is not there or a CDATA section is still open
	 */
	static int indexOutsideCdata(String text, String target, int from) {
		int position = from;
		while (true) {
			int found = text.indexOf(target, position);
			int cdata = text.indexOf(CDATA_OPEN, position);
			if (cdata < 0 || (found >= 0 && found < cdata)) {
				return found;
			}
			int end = text.indexOf(CDATA_CLOSE, cdata + CDATA_OPEN.length());
			if (end < 0) {
				return -1;
			}
			position = end + CDATA_CLOSE.length();
		}
	}

	private static Pattern start(String names) {
		return Pattern.compile("<(" + names + ")(\\s[^>]*|/)?>");
	}

	private static @Nullable Element element(String text, Pattern start) {
		Matcher matcher = start.matcher(text);
		int from = 0;
		while (matcher.find(from)) {
			// a match inside CDATA is content, not a tag
			if (indexOutsideCdata(text, matcher.group(), from) != matcher.start()) {
				from = matcher.start() + 1;
				continue;
			}
			if (matcher.group().endsWith("/>")) {
				return new Element(matcher.start(), matcher.end(), "");
			}
			String close = "</" + matcher.group(1) + ">";
			int end = indexOutsideCdata(text, close, matcher.end());
			if (end < 0) {
				// unclosed: it runs to the end of the block
				return new Element(matcher.start(), text.length(), text.substring(matcher.end()));
			}
			return new Element(matcher.start(), end + close.length(), text.substring(matcher.end(), end));
		}
		return null;
	}

	/** An element's text: CDATA sections verbatim, the rest unescaped, blanks around it gone. */
	private static String value(String content) {
		StringBuilder value = new StringBuilder(content.length());
		int position = 0;
		while (position < content.length()) {
			int cdata = content.indexOf(CDATA_OPEN, position);
			if (cdata < 0) {
				value.append(unescape(content.substring(position)));
				break;
			}
			value.append(unescape(content.substring(position, cdata)));
			int end = content.indexOf(CDATA_CLOSE, cdata + CDATA_OPEN.length());
			int stop = (end < 0) ? content.length() : end;
			value.append(content, cdata + CDATA_OPEN.length(), stop);
			position = (end < 0) ? content.length() : end + CDATA_CLOSE.length();
		}
		return value.toString().strip();
	}

	private static String unescape(String text) {
		if (text.indexOf('&') < 0) {
			return text;
		}
		return text.replace("&lt;", "<")
			.replace("&gt;", ">")
			.replace("&quot;", "\"")
			.replace("&apos;", "'")
			.replace("&amp;", "&");
	}

	/** Arguments a model wrapped in a code fence ({@code ```json ... ```}) without it. */
	private static String unfence(String arguments) {
		if (!arguments.startsWith("```") || !arguments.endsWith("```") || arguments.length() < 6) {
			return arguments;
		}
		int firstLine = arguments.indexOf('\n');
		if (firstLine < 0) {
			return arguments;
		}
		return arguments.substring(firstLine + 1, arguments.length() - 3).strip();
	}

	private record Element(int start, int end, String content) {

	}

}
