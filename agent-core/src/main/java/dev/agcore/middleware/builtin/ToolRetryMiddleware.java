package dev.agcore.middleware.builtin;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.ToolCallHandler;
import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.secret.SecretReferenceException;
import reactor.core.publisher.Mono;

/**
 * Retries failed tool calls with exponential backoff. A tool call fails by returning an
 * error result (never an error signal); each failure is offered to a predicate as a
 * {@link ToolFailure}, and only the ones it accepts are retried, after a non-blocking
 * wait of {@code initialBackoff * multiplier^(retry - 1)}, capped at {@code maxBackoff}
 * and spread by {@code jitter}. When the attempts run out the last error goes to the
 * model, noting how many attempts were made.
 * <p>
 * By default every failure caused by an exception is retried except invalid arguments
 * (retrying the same arguments cannot help; the model must correct them) and timeouts (the
 * call may have done its work); unknown tools and calls refused by other middleware are
 * not exceptions and are never retried, and neither are calls a person approved.
 * Register it inside (after) limit middleware so that retries are not counted as calls.
 * <pre>
 * agent.middleware(ToolRetryMiddleware.builder().maxAttempts(3).retryOn(IOException.class).build());
 * </pre>
 */
public final class ToolRetryMiddleware implements AgentMiddleware {

	private final int maxAttempts;

	private final Duration initialBackoff;

	private final double multiplier;

	private final Duration maxBackoff;

	private final double jitter;

	private final Set<String> tools;

	private final Predicate<ToolFailure> retryIf;

	private final boolean retryApproved;

	private ToolRetryMiddleware(Builder builder) {
		this.retryApproved = builder.retryApproved;
		this.maxAttempts = builder.maxAttempts;
		this.initialBackoff = builder.initialBackoff;
		this.multiplier = builder.multiplier;
		this.maxBackoff = builder.maxBackoff;
		this.jitter = builder.jitter;
		this.tools = Set.copyOf(builder.tools);
		this.retryIf = builder.retryIf;
	}

	public static Builder builder() {
		return new Builder();
	}

	@Override
	public Mono<ToolResultMessage> wrapToolCall(AgentContext context, ToolCall call, ToolCallHandler next) {
		if (!this.tools.isEmpty() && !this.tools.contains(call.name())) {
			return next.call(call);
		}
		if (!this.retryApproved && context.isApproved(call.id())) {
			// a person approved one run of this call, not as many as retries make
			return next.call(call);
		}
		return attempt(context, call, next, 1);
	}

	private Mono<ToolResultMessage> attempt(AgentContext context, ToolCall call, ToolCallHandler next, int attempt) {
		return next.call(call).flatMap((result) -> {
			if (!result.error()) {
				return Mono.just(result);
			}
			ToolFailure failure = new ToolFailure(call, result, context.toolFailure(call.id()), attempt);
			if (!this.retryIf.test(failure)) {
				return Mono.just(result);
			}
			if (attempt >= this.maxAttempts) {
				return Mono.just(new ToolResultMessage(result.toolCallId(), result.toolName(),
						result.text() + " (gave up after " + attempt + " attempts)", true));
			}
			return Mono.delay(backoff(attempt)).then(Mono.defer(() -> attempt(context, call, next, attempt + 1)));
		});
	}

	/** The wait before retry number {@code retry}, from 1. */
	Duration backoff(int retry) {
		double millis = this.initialBackoff.toMillis() * Math.pow(this.multiplier, retry - 1);
		millis = Math.min(millis, this.maxBackoff.toMillis());
		if (this.jitter > 0) {
			millis *= 1 + this.jitter * (2 * ThreadLocalRandom.current().nextDouble() - 1);
		}
		return Duration.ofMillis(Math.round(millis));
	}

	@Override
	public String toString() {
		return "ToolRetryMiddleware[maxAttempts=" + this.maxAttempts + ", initialBackoff=" + this.initialBackoff
				+ ", tools=" + (this.tools.isEmpty() ? "all" : this.tools) + "]";
	}

	/**
	 * Builds a {@link ToolRetryMiddleware}.
	 */
	public static final class Builder {

		/**
		 * Retry every failure caused by an exception, except invalid arguments and
		 * refused secret references, which fail the same way every time, and timeouts,
		 * whose call may have done its work anyway.
		 */
		public static final Predicate<ToolFailure> DEFAULT_RETRY_IF = (failure) -> failure.cause() != null
				&& !failure.isCausedBy(ToolArgumentsException.class)
				&& !failure.isCausedBy(SecretReferenceException.class)
				// a timed-out call may still be running, or may have done its work: again could do it twice
				&& !failure.isCausedBy(TimeoutException.class);

		private int maxAttempts = 3;

		private Duration initialBackoff = Duration.ofMillis(500);

		private double multiplier = 2.0;

		private Duration maxBackoff = Duration.ofSeconds(10);

		private double jitter;

		private Set<String> tools = Set.of();

		private Predicate<ToolFailure> retryIf = DEFAULT_RETRY_IF;

		private boolean retryApproved;

		private Builder() {
		}

		/**
		 * Set the total number of attempts, the first included.
		 * @param maxAttempts the attempts, at least 1 (1 disables retry); default 3
		 * @return this builder
		 */
		public Builder maxAttempts(int maxAttempts) {
			this.maxAttempts = Checks.atLeastOne(maxAttempts, "maxAttempts");
			return this;
		}

		/**
		 * Set the wait before the first retry; default 500 ms.
		 * @param initialBackoff a positive duration
		 * @return this builder
		 */
		public Builder initialBackoff(Duration initialBackoff) {
			this.initialBackoff = Checks.positive(initialBackoff, "initialBackoff");
			return this;
		}

		/**
		 * Set the factor by which the wait grows with each retry; default 2.
		 * @param multiplier at least 1
		 * @return this builder
		 */
		public Builder multiplier(double multiplier) {
			if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
				throw new IllegalArgumentException("'multiplier' must be at least 1.0, was " + multiplier);
			}
			this.multiplier = multiplier;
			return this;
		}

		/**
		 * Set the longest wait; default 10 s.
		 * @param maxBackoff a positive duration
		 * @return this builder
		 */
		public Builder maxBackoff(Duration maxBackoff) {
			this.maxBackoff = Checks.positive(maxBackoff, "maxBackoff");
			return this;
		}

		/**
		 * Set the randomization factor of each wait: 0.5 waits between half and one and a
		 * half times the computed value; default 0.
		 * @param jitter in [0, 1)
		 * @return this builder
		 */
		public Builder jitter(double jitter) {
			if (!(jitter >= 0.0 && jitter < 1.0)) {
				throw new IllegalArgumentException("'jitter' must be in [0, 1), was " + jitter);
			}
			this.jitter = jitter;
			return this;
		}

		/**
		 * Retry only these tools; by default all.
		 * @param tools the tool names
		 * @return this builder
		 */
		public Builder tools(String... tools) {
			return tools(List.of(tools));
		}

		public Builder tools(Iterable<String> tools) {
			Set<String> names = new LinkedHashSet<>();
			tools.forEach((tool) -> names.add(Objects.requireNonNull(tool, "'tools' must not contain null")));
			this.tools = names;
			return this;
		}

		/**
		 * Retry only failures caused by one of these exception types (or subtypes, when
		 * the runtime reports the cause; see {@link ToolFailure#isCausedBy}).
		 * @param types the exception types
		 * @return this builder
		 */
		@SafeVarargs
		public final Builder retryOn(Class<? extends Throwable>... types) {
			List<Class<? extends Throwable>> list = List.of(types);
			if (list.isEmpty()) {
				throw new IllegalArgumentException("'retryOn' must name at least one exception type");
			}
			this.retryIf = (failure) -> list.stream().anyMatch(failure::isCausedBy);
			return this;
		}

		/**
		 * Retry the failures this predicate accepts; replaces {@link #retryOn}.
		 * @param retryIf the predicate
		 * @return this builder
		 */
		public Builder retryIf(Predicate<ToolFailure> retryIf) {
			this.retryIf = Objects.requireNonNull(retryIf, "'retryIf' must not be null");
			return this;
		}

		/**
		 * Whether calls a person approved (human-in-the-loop) may be retried too. Off by
		 * default: an approval covers one run, and such tools are usually the ones that
		 * must not run twice.
		 * @param retryApproved whether to retry approved calls
		 * @return this builder
		 */
		public Builder retryApproved(boolean retryApproved) {
			this.retryApproved = retryApproved;
			return this;
		}

		public ToolRetryMiddleware build() {
			if (this.initialBackoff.compareTo(this.maxBackoff) > 0) {
				throw new IllegalStateException("'initialBackoff' (" + this.initialBackoff
						+ ") must not be longer than 'maxBackoff' (" + this.maxBackoff + ")");
			}
			return new ToolRetryMiddleware(this);
		}

	}

}
