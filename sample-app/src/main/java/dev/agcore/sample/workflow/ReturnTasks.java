package dev.agcore.sample.workflow;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.sample.tools.OrderTools;
import dev.agcore.workflow.annotation.Task;

import org.springframework.stereotype.Component;

/**
 * The steps of a return request. Each is a task: inside a workflow its result is
 * checkpointed, so when the workflow continues after the approval (or on another
 * instance after a crash) the steps already done are not done again.
 */
@Component
public class ReturnTasks {

	private final OrderTools orders;

	private final AtomicInteger refundsIssued = new AtomicInteger();

	public ReturnTasks(OrderTools orders) {
		this.orders = orders;
	}

	@Task(name = "look-up-order")
	public String lookUpOrder(String orderId) {
		return this.orders.getOrderStatus(orderId);
	}

	/** A flat refund per item line; a real shop would ask its order service. */
	@Task(name = "quote-refund")
	public RefundQuote quoteRefund(String orderId, String orderStatus) {
		// the items are listed in parentheses: "(2 x espresso cups, 1 x milk frother)"
		int open = orderStatus.indexOf('(');
		int close = orderStatus.indexOf(')', open + 1);
		int lines = (open >= 0 && close > open) ? orderStatus.substring(open + 1, close).split(",").length : 0;
		return new RefundQuote(orderId.strip().toUpperCase(Locale.ROOT), lines * 15.0);
	}

	@Task(name = "issue-refund")
	public String issueRefund(RefundQuote quote) {
		int number = this.refundsIssued.incrementAndGet();
		return "Refund R-" + number + " of " + quote.amount() + " EUR issued for order " + quote.orderId();
	}

	/**
	 * The refund offered for an order.
	 *
	 * @param orderId the order
	 * @param amount the amount in EUR
	 */
	public record RefundQuote(String orderId, double amount) {
	}

}
