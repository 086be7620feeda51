package dev.agcore.docs.mcp;

import dev.agcore.Tool;
import dev.agcore.ToolParam;

/** The coffee shop's tools that the MCP server snippet of docs/mcp.md offers. */
public class ShopTools {

	@Tool(name = "cancel_order", description = "Cancel an order", permission = "destructive", secrets = {})
	public String cancel(@ToolParam(description = "Order number") int order) {
		return "Order " + order + " is cancelled";
	}

	@Tool(name = "list_coffees", description = "The coffees on the menu", category = "catalog",
			permission = "read-only", secrets = {})
	public String coffees() {
		return "Espresso, Flat white, Filter";
	}

	@Tool(name = "coffee_price", description = "Price of a coffee in EUR", category = "catalog",
			permission = "read-only", secrets = {})
	public String price(@ToolParam(description = "Coffee name") String coffee) {
		return coffee + ": 3.20 EUR";
	}

}
