package dev.agcore.model;

/**
 * Told each time a model call fails and is tried again. The runtime puts one in the
 * Reactor context of each model call under {@link #CONTEXT_KEY}, so that a retrying
 * decorator (such as {@code RetryingChatModel}) can report retries to the call's metrics
 * and observation without knowing either.
 */
@FunctionalInterface
public interface ModelRetryListener {

	/** The Reactor context key of the listener. */
	Object CONTEXT_KEY = ModelRetryListener.class;

	/**
	 * Called before the wait that precedes another attempt.
	 * @param cause the failure of the attempt that is retried
	 * @param delayMillis how long the next attempt waits
	 */
	void onRetry(Throwable cause, long delayMillis);

}
