package dev.agcore.docs.tools;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.agcore.AgentName;
import dev.agcore.RawArguments;
import dev.agcore.SessionId;
import dev.agcore.State;
import dev.agcore.Tool;
import dev.agcore.ToolCallId;
import dev.agcore.ToolParam;
import dev.agcore.memory.LongTermStore;
import dev.agcore.memory.SessionMemory;
import dev.agcore.tool.ToolContext;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The tool signatures of docs/tools.md: each region is a method's annotation and
 * signature, its body follows the region.
 */
public class ParameterTools {

	// tag::defaults[]
	@Tool(description = "Forecast with defaults", secrets = {})
	public String defaults(String city, @ToolParam(description = "Days ahead", defaultValue = "3") int days,
			@ToolParam(defaultValue = "en") String language, @ToolParam(defaultValue = "true") boolean metric,
			@ToolParam(defaultValue = "celsius") Unit unit, @ToolParam(defaultValue = "1.5") double factor,
			@ToolParam(defaultValue = "[\"news\", \"sport\"]") List<String> tags,
			@ToolParam(defaultValue = "7") Optional<Integer> limit, @ToolParam(defaultValue = "42") String code)
	// end::defaults[]
	{
		return city + " " + days + " " + language + " " + metric + " " + unit + " " + factor + " " + tags + " "
				+ limit.orElseThrow() + " " + code;
	}

	// tag::validated[]
	@Tool(description = "Book a trip", secrets = {})
	public String validated(@Min(1) @Max(14) int days, @NotBlank @Size(max = 40) String city,
			@Pattern(regexp = "[A-Z]{2}") String country, @Positive double budget,
			@Size(min = 1, max = 5) List<String> travellers, @Email @Nullable String email,
			@DecimalMin(value = "0", inclusive = false) BigDecimal deposit)
	// end::validated[]
	{
		return "booked " + days + " days in " + city;
	}

	// tag::order[]
	public record Order(@NotBlank String customer, @Size(min = 1) List<@Valid Line> lines,
			@ToolParam(required = false) @Pattern(regexp = "[A-Z0-9]{6}") String coupon) {
	}

	public record Line(@ToolParam(description = "Product code") String sku, @Min(1) @Max(99) int quantity,
			@ToolParam(defaultValue = "false") boolean giftWrap) {
	}

	@Tool(description = "Place an order", secrets = {})
	public String order(@Valid Order order)
	// end::order[]
	{
		return "ordered " + order.lines().size() + " lines for " + order.customer();
	}

	// tag::injected[]
	@Tool(description = "Search notes", secrets = {})
	public String injected(@ToolParam(description = "What to look for") String query, ToolContext context,
			SessionMemory memory, LongTermStore store, @ToolCallId String callId, @SessionId String sessionId,
			@AgentName String agentName, @State("userId") @Nullable String userId, @State Map<String, Object> state)
	// end::injected[]
	{
		return query + " in " + sessionId + " of " + agentName + " (" + callId + ")";
	}

	// tag::raw[]
	@Tool(description = "Forward an event as it is", secrets = {})
	public String raw(@RawArguments JsonNode arguments, @ToolCallId String callId)
	// end::raw[]
	{
		return callId + ": " + arguments;
	}

	// tag::raw-declared[]
	@Tool(description = "Send a webhook", secrets = { "token" })
	public String rawDeclared(@RawArguments(schema = """
			{"type": "object",
			 "properties": {"url": {"type": "string"}, "token": {"type": "string"}},
			 "required": ["url"]}
			""") ObjectNode arguments)
	// end::raw-declared[]
	{
		return "sent to " + arguments.path("url").asString();
	}

	// tag::secrets[]
	@Tool(description = "Call the billing API", secrets = { "apiKey" })
	public String callApi(String url, String apiKey)
	// end::secrets[]
	{
		return "called " + url;
	}

}
