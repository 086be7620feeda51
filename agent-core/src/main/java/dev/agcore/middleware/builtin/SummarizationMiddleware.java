package dev.agcore.middleware.builtin;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.ModelCall;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.support.LogSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * When a request is estimated over a token threshold, replaces the older part of the
 * conversation with a summary written by a model, keeping the last messages as they are.
 * The cut never separates an assistant message that calls tools from the results of those
 * calls: it moves back to before that message.
 * <p>
 * Summaries are written reactively, without blocking a thread, and shrink the session's
 * stored conversation in the same turn: at the start of a turn ({@code beforeAgent}) when
 * the history and the new message are already over the threshold, and before a model call
 * ({@code wrapModelCall}) when the turn's own messages (tool results) push the request over
 * it; such a summary is sent at once, reused by the turn's later calls, and put into the
 * stored conversation when the turn ends ({@code afterAgent}). A turn that fails, or pauses
 * for approval, leaves the stored history as it was; the summary is written again when
 * needed.
 * <p>
 * The summary is a user message starting with {@value #SUMMARY_PREFIX}. If the
 * summarizing model fails, the turn goes on unsummarized, with no further attempt, and a
 * warning is logged.
 * <pre>
 * agent.middleware(SummarizationMiddleware.builder(cheapModel).triggerTokens(60_000).keepMessages(12).build());
 * </pre>
 */
public final class SummarizationMiddleware implements AgentMiddleware {

	/** How every summary message starts. */
	public static final String SUMMARY_PREFIX = "Summary of the earlier conversation:";

	/** The instructions sent to the summarizing model by default. */
	public static final String DEFAULT_PROMPT = """
			You condense conversations between a user and an AI assistant. Write a concise summary \
			of the conversation you are given, so that the assistant can continue it without the \
			original messages. Keep facts, names, numbers, decisions, results of tool calls that \
			still matter, the user's goals and preferences, and open tasks. Leave out greetings \
			and repetition. Write in the language of the conversation. Answer with the summary \
			only.""";

	private static final Logger logger = LoggerFactory.getLogger(SummarizationMiddleware.class);

	private static final AtomicLong instances = new AtomicLong();

	private final ChatModel model;

	private final String prompt;

	private final long triggerTokens;

	private final int keepMessages;

	private final TokenEstimator estimator;

	private final String liveKey;

	private final String turnKey;

	private final String failedKey;

	private SummarizationMiddleware(Builder builder) {
		this.model = builder.model;
		this.prompt = builder.prompt;
		this.triggerTokens = builder.triggerTokens;
		this.keepMessages = builder.keepMessages;
		this.estimator = builder.estimator;
		String key = SummarizationMiddleware.class.getName() + "#" + instances.incrementAndGet();
		this.liveKey = key + ".conversation";
		this.turnKey = key + ".summary";
		this.failedKey = key + ".failed";
	}

	/**
	 * Start building a middleware that summarizes with the given model.
	 * @param model the model that writes summaries; a small, cheap one is usually enough
	 * @return the builder
	 */
	public static Builder builder(ChatModel model) {
		return new Builder(model);
	}

	/**
	 * Summarize the older part of a conversation that is already over the threshold, in
	 * the conversation itself, so the turn starts short and the store shrinks with it.
	 */
	@Override
	public Mono<Void> beforeAgentAsync(AgentContext context, List<Message> messages) {
		return Mono.defer(() -> {
			// the live conversation, so that summaries can be matched against what is stored
			context.attributes().put(this.liveKey, messages);
			if (this.estimator.estimate(messages) <= this.triggerTokens) {
				return Mono.empty();
			}
			int cut = cutPoint(messages);
			if (cut < 2) {
				return Mono.empty();
			}
			return summarize(messages.subList(0, cut))
				.doOnNext((text) -> ConversationSummaries.replacePrefixInPlace(messages, cut,
						ConversationSummaries.summaryMessage(text)))
				.onErrorResume((ex) -> {
					failed(context, ex);
					return Mono.empty();
				})
				.then();
		});
	}

	/**
	 * Put a summary written during the turn into the conversation that is stored, when the
	 * conversation still begins with the summarized messages.
	 */
	@Override
	public Mono<Void> afterAgentAsync(AgentContext context, List<Message> messages) {
		return Mono.fromRunnable(() -> {
			Summary summary = (Summary) context.attributes().get(this.turnKey);
			if (summary != null && summary.isPrefixOf(messages)) {
				ConversationSummaries.replacePrefixInPlace(messages, summary.count(), summary.message());
			}
		});
	}

	@Override
	public Mono<ChatResponse> wrapModelCall(AgentContext context, ChatRequest request, ModelCall next) {
		return Mono.defer(() -> {
			List<Message> all = request.messages();
			int head = leadingSystemMessages(all);
			List<Message> conversation = all.subList(head, all.size());
			List<Message> raw = rawConversation(context, conversation);
			// a summary written earlier in this turn: apply it again, the loop keeps the full list
			Summary earlier = (Summary) context.attributes().get(this.turnKey);
			boolean reapplied = earlier != null && earlier.count() > 0 && earlier.isPrefixOf(raw);
			List<Message> current = reapplied
					? ConversationSummaries.replacePrefix(conversation, earlier.count(), earlier.message())
					: conversation;
			ChatRequest effective = reapplied ? withConversation(request, head, current) : request;
			if (context.attributes().containsKey(this.failedKey)
					|| this.estimator.estimate(effective.messages()) <= this.triggerTokens) {
				return next.call(effective);
			}
			int cut = cutPoint(current);
			if (cut < 2) {
				return next.call(effective);
			}
			int rawCut = reapplied ? earlier.count() - 1 + cut : cut;
			return summarize(current.subList(0, cut)).map((text) -> {
				Summary summary = new Summary(rawCut, raw.subList(0, rawCut).hashCode(), text);
				context.attributes().put(this.turnKey, summary);
				return withConversation(request, head,
						ConversationSummaries.replacePrefix(current, cut, summary.message()));
			}).onErrorResume((ex) -> {
				failed(context, ex);
				return Mono.just(effective);
			}).flatMap(next::call);
		});
	}

	/** Log the failure, and try no more in this turn: each attempt delays it. */
	private void failed(AgentContext context, Throwable ex) {
		context.attributes().put(this.failedKey, Boolean.TRUE);
		logger.warn("Agent '{}' could not summarize the conversation of session '{}'; sending it whole: {}",
				LogSafe.text(context.agentName()), LogSafe.text(context.sessionId()), LogSafe.text(ex.toString()));
	}

	/** Where to cut: see {@link ConversationSummaries#cutPoint}. */
	int cutPoint(List<Message> conversation) {
		return ConversationSummaries.cutPoint(conversation, this.keepMessages);
	}

	private static int leadingSystemMessages(List<Message> messages) {
		int count = 0;
		while (count < messages.size() && messages.get(count) instanceof SystemMessage) {
			count++;
		}
		return count;
	}

	/** The conversation as the loop holds it, when it lines up with the request's. */
	@SuppressWarnings("unchecked")
	private List<Message> rawConversation(AgentContext context, List<Message> conversation) {
		Object live = context.attributes().get(this.liveKey);
		if (live instanceof List<?> list && list.size() == conversation.size()) {
			return (List<Message>) list;
		}
		return conversation;
	}

	private Mono<String> summarize(List<Message> messages) {
		return ConversationSummaries.summarize(this.model, this.prompt, messages);
	}

	private static ChatRequest withConversation(ChatRequest request, int head, List<Message> conversation) {
		List<Message> messages = new ArrayList<>(head + conversation.size());
		messages.addAll(request.messages().subList(0, head));
		messages.addAll(conversation);
		return new ChatRequest(messages, request.tools(), request.options());
	}

	@Override
	public String toString() {
		return "SummarizationMiddleware[triggerTokens=" + this.triggerTokens + ", keepMessages=" + this.keepMessages
				+ "]";
	}

	/**
	 * A summary of the first {@code count} messages of a conversation, recognised by their
	 * hash (messages are records, so equal content gives an equal hash): a conversation
	 * whose beginning changed since, by another middleware, is left as it is.
	 */
	private record Summary(int count, int hash, String text) {

		boolean isPrefixOf(List<Message> messages) {
			return messages.size() >= this.count && messages.subList(0, this.count).hashCode() == this.hash;
		}

		UserMessage message() {
			return ConversationSummaries.summaryMessage(this.text);
		}

	}

	/**
	 * Builds a {@link SummarizationMiddleware}.
	 */
	public static final class Builder {

		private final ChatModel model;

		private String prompt = DEFAULT_PROMPT;

		private long triggerTokens = 100_000;

		private int keepMessages = 20;

		private TokenEstimator estimator = TokenEstimator.CHARS_PER_TOKEN;

		private Builder(ChatModel model) {
			this.model = Objects.requireNonNull(model, "'model' must not be null");
		}

		public Builder prompt(String prompt) {
			this.prompt = Checks.notBlank(prompt, "prompt");
			return this;
		}

		/**
		 * Summarize when a request is estimated above this many tokens; default 100,000.
		 * @param triggerTokens at least 1
		 * @return this builder
		 */
		public Builder triggerTokens(long triggerTokens) {
			this.triggerTokens = Checks.atLeastOne(triggerTokens, "triggerTokens");
			return this;
		}

		/**
		 * Keep at least this many of the latest messages as they are; default 20.
		 * @param keepMessages at least 1
		 * @return this builder
		 */
		public Builder keepMessages(int keepMessages) {
			this.keepMessages = Checks.atLeastOne(keepMessages, "keepMessages");
			return this;
		}

		public Builder tokenEstimator(TokenEstimator estimator) {
			this.estimator = Objects.requireNonNull(estimator, "'estimator' must not be null");
			return this;
		}

		public SummarizationMiddleware build() {
			return new SummarizationMiddleware(this);
		}

	}

}
