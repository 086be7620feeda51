package dev.agcore.runtime;

import java.util.List;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatResponse;
import dev.agcore.retrieval.Document;
import dev.agcore.retrieval.Retriever;
import dev.agcore.retrieval.ScoredDocument;
import dev.agcore.retrieval.SearchRequest;
import reactor.core.publisher.Mono;

/**
 * Answers from retrieved sources: retrieve with the user's message, give the model the
 * results as numbered sources it must cite, and append the list of the sources it cited
 * to the answer. When nothing relevant is found the model is not called.
 */
final class RetrievalQaRunner implements TurnRunner {

	/** The most characters of one source's content given to the model. */
	static final int MAX_SOURCE_LENGTH = 4000;

	private static final Pattern CITATION = Pattern.compile("\\[(\\d{1,3})]");

	private final ModelStep step;

	private final Retriever retriever;

	private final int topK;

	private final double minScore;

	RetrievalQaRunner(ModelStep step, Retriever retriever, int topK, double minScore) {
		this.step = step;
		this.retriever = retriever;
		this.topK = topK;
		this.minScore = minScore;
	}

	@Override
	public Mono<Void> run(Turn turn, TurnListener listener) {
		String query = inputText(turn).strip();
		Mono<List<ScoredDocument>> found = query.isEmpty() ? Mono.just(List.of())
				: this.retriever.retrieve(SearchRequest.of(query).withTopK(this.topK).withMinScore(this.minScore))
					.defaultIfEmpty(List.of());
		return found.flatMap((documents) -> {
			// a retriever may not apply the minimum score itself
			List<ScoredDocument> sources = documents.stream()
				.filter((document) -> document.score() >= this.minScore)
				.limit(this.topK)
				.toList();
			if (sources.isEmpty()) {
				turn.accept(ChatResponse.of(AssistantMessage.of(Runner.NOTHING_FOUND)));
				listener.onText(Runner.NOTHING_FOUND);
				return Mono.empty();
			}
			String instructions = join(sourcesPrompt(sources, this.step.untrusted()), turn.setup().instructions());
			return this.step
				.call(turn, List.of(), FinalAnswers.noToolOptions(turn), instructions, UnaryOperator.identity(),
						listener)
				.flatMap((response) -> {
					String cited = citedSources(response.message().text(), sources);
					if (cited.isEmpty()) {
						return FinalAnswers.accept(turn, response);
					}
					listener.onText(cited);
					AssistantMessage message = response.message();
					return FinalAnswers.accept(turn, new ChatResponse(new AssistantMessage(message.text() + cited,
							message.toolCalls(), message.reasoning(), message.refusal()), response.usage(),
							response.finishReason(), response.model()));
				});
		});
	}

	private static String inputText(Turn turn) {
		List<Message> messages = turn.turnMessages();
		return (!messages.isEmpty() && messages.get(0) instanceof UserMessage user) ? user.text() : "";
	}

	private static String join(String first, String second) {
		return second.isEmpty() ? first : first + "\n\n" + second;
	}

	/** The sources and how to use them, for the system prompt of the answer call. */
	static String sourcesPrompt(List<ScoredDocument> sources) {
		return sourcesPrompt(sources, UntrustedContent.DISABLED);
	}

	/** The sources, each in an untrusted-content block when the agent marks them. */
	static String sourcesPrompt(List<ScoredDocument> sources, UntrustedContent untrusted) {
		StringBuilder prompt = new StringBuilder("Answer the user's question using only the numbered sources below. "
				+ "Cite the sources you use as [1], [2] right after the statements they support. If the sources do "
				+ "not contain the answer, say that they do not instead of guessing.\n\nSources:");
		for (int i = 0; i < sources.size(); i++) {
			Document document = sources.get(i).document();
			String content = document.content();
			if (content.length() > MAX_SOURCE_LENGTH) {
				content = content.substring(0, MAX_SOURCE_LENGTH) + "…";
			}
			prompt.append("\n\n[").append(i + 1).append("] ").append(label(document)).append('\n')
				.append(untrusted.block("document " + label(document), content));
		}
		return prompt.toString();
	}

	/**
	 * The sources an answer cites, as a block to append to it: a blank line,
	 * {@code Sources:}, then one {@code [n] title (id)} line per cited source, in number
	 * order; empty when it cites none of them.
	 */
	static String citedSources(String answer, List<ScoredDocument> sources) {
		TreeSet<Integer> cited = new TreeSet<>();
		Matcher matcher = CITATION.matcher(answer);
		while (matcher.find()) {
			int number = Integer.parseInt(matcher.group(1));
			if (number >= 1 && number <= sources.size()) {
				cited.add(number);
			}
		}
		if (cited.isEmpty()) {
			return "";
		}
		StringBuilder block = new StringBuilder("\n\nSources:");
		for (int number : cited) {
			block.append("\n[").append(number).append("] ").append(label(sources.get(number - 1).document()));
		}
		return block.toString();
	}

	private static String label(Document document) {
		return document.title().isBlank() ? document.id() : document.title().strip() + " (" + document.id() + ")";
	}

}
