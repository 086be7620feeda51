package dev.agcore.memory.window;

import java.util.Locale;
import java.util.Objects;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import org.jspecify.annotations.Nullable;

/**
 * Counts tokens with the tokenizer of OpenAI-family models, through jtokkit (an optional
 * dependency). Text is encoded as ordinary text: special-token markers in a message count
 * as the text they are, never as control tokens. Each message adds
 * {@value #TOKENS_PER_MESSAGE} tokens of framing (role and separators, as OpenAI documents
 * for chat models) and each tool call {@value #TOKENS_PER_TOOL_CALL}, so counts are exact
 * for text and within a few tokens per message of what the API bills.
 */
public final class JtokkitTokenCounter implements TokenCounter {

	/** Framing of one message: three separator tokens and the role. */
	public static final int TOKENS_PER_MESSAGE = 4;

	/** Framing of one tool call besides its name and arguments. */
	public static final int TOKENS_PER_TOOL_CALL = 3;

	private final Encoding encoding;

	private JtokkitTokenCounter(Encoding encoding) {
		this.encoding = encoding;
	}

	/**
	 * The counter of the {@code o200k_base} encoding: gpt-4o, gpt-4.1, gpt-5 and the
	 * o-series reasoning models.
	 * @return the counter
	 */
	public static JtokkitTokenCounter o200k() {
		return new JtokkitTokenCounter(Registry.INSTANCE.getEncoding(EncodingType.O200K_BASE));
	}

	/**
	 * The counter of the {@code cl100k_base} encoding: gpt-4, gpt-3.5-turbo and the
	 * text-embedding-3 models.
	 * @return the counter
	 */
	public static JtokkitTokenCounter cl100k() {
		return new JtokkitTokenCounter(Registry.INSTANCE.getEncoding(EncodingType.CL100K_BASE));
	}

	/**
	 * Return the counter for an OpenAI-family model, by name; a provider prefix such as
	 * {@code openai/} is ignored.
	 * @param modelName the model, such as "gpt-4o-mini" or "gpt-3.5-turbo"
	 * @return the counter, or null when the model is not one whose encoding is known
	 */
	public static @Nullable JtokkitTokenCounter forModel(String modelName) {
		EncodingType type = encodingOf(modelName);
		return (type != null) ? new JtokkitTokenCounter(Registry.INSTANCE.getEncoding(type)) : null;
	}

	/** The encoding of a model, by the prefixes of OpenAI's model names; null when unknown. */
	static @Nullable EncodingType encodingOf(String modelName) {
		Objects.requireNonNull(modelName, "'modelName' must not be null");
		String name = modelName.strip().toLowerCase(Locale.ROOT);
		name = name.substring(name.lastIndexOf('/') + 1);
		if (name.startsWith("gpt-4o") || name.startsWith("chatgpt-4o") || name.startsWith("gpt-4.1")
				|| name.startsWith("gpt-4.5") || name.startsWith("gpt-5") || name.startsWith("gpt-oss")
				|| isOSeries(name)) {
			return EncodingType.O200K_BASE;
		}
		if (name.startsWith("gpt-4") || name.startsWith("gpt-3.5") || name.startsWith("gpt-35")
				|| name.startsWith("text-embedding-3") || name.equals("text-embedding-ada-002")) {
			return EncodingType.CL100K_BASE;
		}
		return null;
	}

	/** o1, o3, o4-mini and their dated versions. */
	private static boolean isOSeries(String name) {
		return name.length() >= 2 && name.charAt(0) == 'o' && Character.isDigit(name.charAt(1))
				&& (name.length() == 2 || name.charAt(2) == '-');
	}

	/**
	 * Return the name of the encoding, such as "o200k_base".
	 * @return the name
	 */
	public String encodingName() {
		return this.encoding.getName();
	}

	/**
	 * Count the tokens of a text, without framing.
	 * @param text the text
	 * @return the count
	 */
	public int countText(String text) {
		return text.isEmpty() ? 0 : this.encoding.countTokensOrdinary(text);
	}

	@Override
	public long count(Message message) {
		long tokens = TOKENS_PER_MESSAGE + countText(message.text());
		if (message instanceof AssistantMessage assistant) {
			for (ToolCall call : assistant.toolCalls()) {
				tokens += TOKENS_PER_TOOL_CALL + countText(call.name()) + countText(call.arguments());
			}
		}
		return tokens;
	}

	@Override
	public String toString() {
		return "JtokkitTokenCounter[" + encodingName() + "]";
	}

	/** One registry, loading each encoding the first time it is asked for. */
	private static final class Registry {

		static final EncodingRegistry INSTANCE = Encodings.newLazyEncodingRegistry();

	}

}
