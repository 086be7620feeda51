package dev.agcore.sample.tools;

import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.agcore.Tool;
import dev.agcore.ToolParam;

import org.springframework.stereotype.Component;

/**
 * Order lookup and cancellation over a small in-memory table; a real application would
 * call its order service or database here. Cancelling waits for a person's approval, see
 * {@code human-in-the-loop} in {@code application.yml}.
 */
@Component
public class OrderTools {

	private static final Map<String, Order> ORDERS = Map.of(
			"A-1001", new Order("A-1001", "shipped", List.of("2 x espresso cups", "1 x milk frother"),
					LocalDate.of(2025, 6, 12)),
			"A-1002", new Order("A-1002", "processing", List.of("1 x pour-over kettle"), LocalDate.of(2025, 6, 18)),
			"A-1003", new Order("A-1003", "delivered", List.of("3 x coffee beans, 250 g"), LocalDate.of(2025, 6, 2)));

	private final Set<String> cancelled = ConcurrentHashMap.newKeySet();

	@Tool(name = "get_order_status", description = "Look up an order by its id: status, items and delivery date", permission = "read-only", secrets = {})
	public String getOrderStatus(@ToolParam(description = "Order id, e.g. A-1001") String orderId) {
		Order order = ORDERS.get(orderId.strip().toUpperCase(Locale.ROOT));
		if (order == null) {
			return "No order with id '" + orderId + "'. Order ids look like A-1001.";
		}
		if (this.cancelled.contains(order.id())) {
			return "Order " + order.id() + " is cancelled.";
		}
		String delivery = "delivered".equals(order.status()) ? "delivered on " : "expected on ";
		return "Order " + order.id() + " is " + order.status() + " (" + String.join(", ", order.items()) + "), "
				+ delivery + order.deliveryDate();
	}

	@Tool(name = "cancel_order", description = "Cancel an order that has not shipped yet", secrets = {})
	public String cancelOrder(@ToolParam(description = "Order id, e.g. A-1002") String orderId) {
		Order order = ORDERS.get(orderId.strip().toUpperCase(Locale.ROOT));
		if (order == null) {
			return "No order with id '" + orderId + "'. Order ids look like A-1001.";
		}
		if (!"processing".equals(order.status())) {
			return "Order " + order.id() + " is " + order.status() + " and can no longer be cancelled.";
		}
		this.cancelled.add(order.id());
		return "Order " + order.id() + " is cancelled.";
	}

	private record Order(String id, String status, List<String> items, LocalDate deliveryDate) {
	}

}
