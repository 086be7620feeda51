package dev.agcore.middleware.builtin;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.agcore.memory.window.TokenCounter;
import dev.agcore.message.Message;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.support.LogSafe;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Keeps a session's conversation under its model's context window. At the start of a
 * turn, when the conversation counts at least {@code context-window - reserved-tokens -
 * }{@value #BUFFER_TOKENS} tokens (95,000 with the defaults):
 * <ol>
 * <li>the text of every tool result older than the last {@code keep-recent} messages is
 * replaced by {@value #PRUNED} (no model call; messages, their order and call ids stay, so
 * every call keeps its result);</li>
 * <li>if still over, the messages before the last {@code keep-recent} are replaced by a
 * summary written by a model; the cut moves back so a tool call and its results are never
 * separated.</li>
 * </ol>
 * The compacted conversation is what the turn runs with and what is stored when it ends,
 * in one replacement of the session's history. Within a turn, a request that grows over
 * the threshold has its older tool results pruned, in the request only.
 * <p>
 * A compaction that frees no tokens, or whose summary fails, is a failure; after
 * {@value #MAX_CONSECUTIVE_FAILURES} in a row compaction stops for that session (a circuit
 * breaker, kept in memory for a bounded number of sessions); a success resets the count.
 * <pre>
 * agent.middleware(AutoCompactionMiddleware.builder(cheapModel).contextWindow(128_000).build());
 * </pre>
 */
public final class AutoCompactionMiddleware implements AgentMiddleware {

	/** Tokens kept free beyond the reserved ones. */
	public static final long BUFFER_TOKENS = 13_000;

	/** Consecutive failures after which a session is no longer compacted. */
	public static final int MAX_CONSECUTIVE_FAILURES = 3;

	/** The text of a pruned tool result. */
	public static final String PRUNED = "[pruned]";

	private static final Logger logger = LoggerFactory.getLogger(AutoCompactionMiddleware.class);

	private final ChatModel model;

	private final String prompt;

	private final long threshold;

	private final int keepRecent;

	private final TokenCounter counter;

	private final MiddlewareMetrics metrics;

	private final CompactionBreaker breaker;

	private AutoCompactionMiddleware(Builder builder, long threshold) {
		this.model = builder.model;
		this.prompt = builder.prompt;
		this.threshold = threshold;
		this.keepRecent = builder.keepRecent;
		this.counter = builder.counter;
		this.metrics = new MiddlewareMetrics(builder.meterRegistry);
		this.breaker = new CompactionBreaker(MAX_CONSECUTIVE_FAILURES, builder.maxTrackedSessions);
	}

	/**
	 * Start building a middleware that summarizes with the given model.
	 * @param model the model that writes summaries, often the agent's own
	 * @return the builder
	 */
	public static Builder builder(ChatModel model) {
		return new Builder(model);
	}

	/**
	 * Return the token count at which a conversation is compacted.
	 * @return the threshold
	 */
	public long threshold() {
		return this.threshold;
	}

	/**
	 * Compact at the start of a turn. Counting a long conversation is CPU work: off a
	 * network event loop it runs on the parallel scheduler, so I/O is not held up.
	 */
	@Override
	public Mono<Void> beforeAgentAsync(AgentContext context, List<Message> messages) {
		return Mono.defer(() -> {
			Mono<Void> compaction = compact(context, messages);
			return Schedulers.isInNonBlockingThread() ? compaction.subscribeOn(Schedulers.parallel()) : compaction;
		});
	}

	private Mono<Void> compact(AgentContext context, List<Message> messages) {
		return Mono.defer(() -> {
			long before = this.counter.count(messages);
			if (before < this.threshold) {
				return Mono.empty();
			}
			if (this.breaker.isOpen(context.sessionId())) {
				this.metrics.increment(MiddlewareMetrics.COMPACTIONS, "outcome", "skipped");
				return Mono.empty();
			}
			prune(messages, this.keepRecent);
			long pruned = this.counter.count(messages);
			int cut = ConversationSummaries.cutPoint(messages, this.keepRecent);
			if (pruned < this.threshold || cut < 1) {
				if (pruned < before) {
					succeeded(context, "pruned", before, pruned);
				}
				else {
					failed(context, "nothing before the last " + this.keepRecent + " messages could be freed");
				}
				return Mono.empty();
			}
			return ConversationSummaries.summarize(this.model, this.prompt, List.copyOf(messages.subList(0, cut)))
				.doOnNext((text) -> {
					Message summary = ConversationSummaries.summaryMessage(text);
					long after = pruned - this.counter.count(messages.subList(0, cut)) + this.counter.count(summary);
					if (after >= pruned) {
						failed(context, "the summary was no shorter than the " + cut + " messages it would replace");
						return;
					}
					ConversationSummaries.replacePrefixInPlace(messages, cut, summary);
					succeeded(context, "summarized", before, after);
				})
				.onErrorResume((ex) -> {
					failed(context, "the summarizing model failed: " + ex);
					return Mono.empty();
				})
				.then();
		});
	}

	/** Within a turn: prune older tool results of a request over the threshold. */
	@Override
	public ChatRequest beforeModel(AgentContext context, ChatRequest request) {
		if (this.breaker.isOpen(context.sessionId()) || this.counter.count(request.messages()) < this.threshold) {
			return request;
		}
		List<Message> messages = new ArrayList<>(request.messages());
		return prune(messages, this.keepRecent) ? new ChatRequest(messages, request.tools(), request.options())
				: request;
	}

	/**
	 * Replace the text of the tool results before the last {@code keepRecent} messages
	 * with {@value #PRUNED}.
	 * @return whether any was replaced
	 */
	static boolean prune(List<Message> messages, int keepRecent) {
		boolean changed = false;
		for (int i = 0; i < messages.size() - keepRecent; i++) {
			if (messages.get(i) instanceof ToolResultMessage result && !result.text().equals(PRUNED)) {
				messages.set(i, new ToolResultMessage(result.toolCallId(), result.toolName(), PRUNED, result.error()));
				changed = true;
			}
		}
		return changed;
	}

	private void succeeded(AgentContext context, String outcome, long before, long after) {
		this.breaker.success(context.sessionId());
		this.metrics.increment(MiddlewareMetrics.COMPACTIONS, "outcome", outcome);
		logger.debug("Agent '{}' compacted session '{}' ({}) from {} to {} tokens",
				LogSafe.text(context.agentName()), LogSafe.text(context.sessionId()), outcome, before, after);
	}

	private void failed(AgentContext context, String reason) {
		this.metrics.increment(MiddlewareMetrics.COMPACTIONS, "outcome", "failed");
		boolean opened = this.breaker.failure(context.sessionId());
		logger.warn("Agent '{}' could not compact session '{}': {}{}", LogSafe.text(context.agentName()),
				LogSafe.text(context.sessionId()), LogSafe.text(reason),
				opened ? "; no more attempts for this session after " + MAX_CONSECUTIVE_FAILURES
						+ " consecutive failures" : "");
	}

	@Override
	public String toString() {
		return "AutoCompactionMiddleware[threshold=" + this.threshold + ", keepRecent=" + this.keepRecent + "]";
	}

	/**
	 * Builds an {@link AutoCompactionMiddleware}.
	 */
	public static final class Builder {

		private final ChatModel model;

		private String prompt = SummarizationMiddleware.DEFAULT_PROMPT;

		private long contextWindow = 128_000;

		private long reservedTokens = 20_000;

		private int keepRecent = 6;

		private TokenCounter counter = TokenCounter.ESTIMATE;

		private @Nullable MeterRegistry meterRegistry;

		private int maxTrackedSessions = 10_000;

		private Builder(ChatModel model) {
			this.model = Objects.requireNonNull(model, "'model' must not be null");
		}

		public Builder prompt(String prompt) {
			this.prompt = Checks.notBlank(prompt, "prompt");
			return this;
		}

		/**
		 * The model's context window, in tokens; default 128,000.
		 * @param contextWindow at least 1
		 * @return this builder
		 */
		public Builder contextWindow(long contextWindow) {
			this.contextWindow = Checks.atLeastOne(contextWindow, "contextWindow");
			return this;
		}

		/**
		 * Tokens kept free for the model's answer; default 20,000.
		 * @param reservedTokens at least 0
		 * @return this builder
		 */
		public Builder reservedTokens(long reservedTokens) {
			if (reservedTokens < 0) {
				throw new IllegalArgumentException("'reservedTokens' must not be negative, was " + reservedTokens);
			}
			this.reservedTokens = reservedTokens;
			return this;
		}

		/**
		 * How many of the latest messages are never pruned nor summarized; default 6.
		 * @param keepRecent at least 1
		 * @return this builder
		 */
		public Builder keepRecent(int keepRecent) {
			this.keepRecent = Checks.atLeastOne(keepRecent, "keepRecent");
			return this;
		}

		/**
		 * How tokens are counted; {@link TokenCounter#ESTIMATE} by default, e.g.
		 * {@code TokenCounter.forModel("gpt-4o")} for exact counts.
		 * @param counter the counter
		 * @return this builder
		 */
		public Builder tokenCounter(TokenCounter counter) {
			this.counter = Objects.requireNonNull(counter, "'counter' must not be null");
			return this;
		}

		/**
		 * Count compactions in {@code agent.compactions}, tagged by outcome (pruned,
		 * summarized, failed, skipped).
		 * @param meterRegistry the registry, or null for none
		 * @return this builder
		 */
		public Builder meterRegistry(@Nullable MeterRegistry meterRegistry) {
			this.meterRegistry = meterRegistry;
			return this;
		}

		/**
		 * How many sessions with failed compactions the circuit breaker remembers; default
		 * 10,000.
		 * @param maxTrackedSessions at least 1
		 * @return this builder
		 */
		public Builder maxTrackedSessions(int maxTrackedSessions) {
			this.maxTrackedSessions = Checks.atLeastOne(maxTrackedSessions, "maxTrackedSessions");
			return this;
		}

		/**
		 * Build the middleware.
		 * @return the middleware
		 * @throws IllegalStateException if the context window leaves no room beyond the
		 * reserved and buffer tokens
		 */
		public AutoCompactionMiddleware build() {
			long threshold = this.contextWindow - this.reservedTokens - BUFFER_TOKENS;
			if (threshold < 1) {
				throw new IllegalStateException("contextWindow (" + this.contextWindow
						+ ") must be larger than reservedTokens (" + this.reservedTokens + ") + " + BUFFER_TOKENS
						+ " buffer tokens, so that a conversation has room before it is compacted");
			}
			return new AutoCompactionMiddleware(this, threshold);
		}

	}

}
