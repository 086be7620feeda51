package dev.agcore.sample.workflow;

import java.util.Map;

import dev.agcore.workflow.WorkflowContext;
import dev.agcore.workflow.annotation.Entrypoint;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.stereotype.Component;

/**
 * A return request: look up the order, quote a refund, wait for a person to approve it,
 * then issue it. Run it in the background and approve it:
 * <pre>
 * curl -s -X POST localhost:8080/workflows/return-request/runs -H 'Content-Type: application/json' \
 *      -d '{"input": {"orderId": "A-1001", "reason": "arrived broken"}}'
 * curl -s -X POST localhost:8080/workflows/return-request/runs/{id}/resume -H 'Content-Type: application/json' \
 *      -d '{"resume": {"approved": true}}'
 * </pre>
 */
@Component
public class ReturnWorkflow {

	private final ReturnTasks tasks;

	public ReturnWorkflow(ReturnTasks tasks) {
		this.tasks = tasks;
	}

	@Entrypoint(name = "return-request")
	public Map<String, Object> returnRequest(ReturnRequest request, WorkflowContext context) {
		if (request.orderId() == null || request.orderId().isBlank()) {
			return Map.of("status", "rejected", "reason", "'orderId' is required, e.g. A-1001");
		}
		String order = this.tasks.lookUpOrder(request.orderId());
		if (order.startsWith("No order")) {
			return Map.of("status", "rejected", "reason", order);
		}
		ReturnTasks.RefundQuote quote = this.tasks.quoteRefund(request.orderId(), order);
		// the run stops here as "interrupted" until someone answers {"approved": true|false}
		JsonNode answer = context.interrupt(Map.of("question", "Approve this refund?", "order", order, "refund", quote,
				"reason", (request.reason() != null) ? request.reason() : ""));
		if (!answer.path("approved").asBoolean(false)) {
			return Map.of("status", "declined", "order", order);
		}
		return Map.of("status", "refunded", "receipt", this.tasks.issueRefund(quote));
	}

	/**
	 * The input of a return request.
	 *
	 * @param orderId the order, e.g. A-1001
	 * @param reason why it is returned
	 */
	public record ReturnRequest(@Nullable String orderId, @Nullable String reason) {
	}

}
