package dev.agcore.runtime;

import java.util.Arrays;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * How an agent runs a turn. See {@code docs/runners.md} for when to choose which.
 *
 * @since 0.1.0
 */
public enum Runner {

	/**
	 * The tool loop: call the model; while it asks for tools, run them and call it again,
	 * up to {@code max-iterations} model calls. The default.
	 */
	REACT("react"),

	/** Plain chat: one model call with the history, no tools offered. */
	LLM("llm"),

	/**
	 * Answer from retrieved sources: retrieve with the user's message, give the model the
	 * results as numbered sources to cite, no tools; answer with a fixed text, without
	 * calling the model, when nothing relevant is found.
	 */
	RETRIEVAL_QA("retrieval-qa"),

	/**
	 * Planner-first: one model call chooses tools, they run in parallel, one more call
	 * answers with their results and no tool choice. {@code @tool} commands in the user's
	 * message force tools in the first call.
	 */
	PLANNER("planner");

	/**
	 * The answer of the retrieval QA runner when no source is relevant enough; the model
	 * is not called.
	 */
	public static final String NOTHING_FOUND = "I found nothing relevant to your question in the available sources, "
			+ "so I cannot answer it from them.";

	private final String id;

	Runner(String id) {
		this.id = id;
	}

	/**
	 * Return the name of the runner in configuration, e.g. {@code retrieval-qa}.
	 * @return the name
	 */
	public String id() {
		return this.id;
	}

	/**
	 * Return the runner of a configuration name, ignoring case, {@code _} for {@code -}
	 * and surrounding blanks.
	 * @param value the name, e.g. {@code retrieval-qa}
	 * @return the runner, or {@code null} if no runner has that name
	 */
	public static @Nullable Runner find(String value) {
		String id = value.strip().toLowerCase(Locale.ROOT).replace('_', '-');
		return Arrays.stream(values()).filter((runner) -> runner.id.equals(id)).findFirst().orElse(null);
	}

	@Override
	public String toString() {
		return this.id;
	}

}
