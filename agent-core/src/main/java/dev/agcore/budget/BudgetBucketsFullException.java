package dev.agcore.budget;

/**
 * A {@link BudgetBuckets} store cannot keep a bucket for a new key without forgetting one
 * that still counts. {@link BudgetMiddleware} refuses the turn with a
 * {@link BudgetExceededException} rather than let it through uncounted.
 *
 * @since 0.1.0
 */
public class BudgetBucketsFullException extends RuntimeException {

	public BudgetBucketsFullException(String message) {
		super(message);
	}

}
