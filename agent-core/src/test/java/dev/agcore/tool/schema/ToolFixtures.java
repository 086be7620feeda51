package dev.agcore.tool.schema;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
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
import dev.agcore.tool.typed.TypedTool;
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
 * Representative tools of every kind for the schema golden tests: {@code @Tool} methods
 * with defaults, constraints, injected and raw parameters, and typed tools. Each method
 * returns what it received, so the same fixtures serve the binding round trips.
 */
@SuppressWarnings("unused")
public class ToolFixtures {

	@Tool(description = "Forecast with defaults", secrets = {})
	public String defaults(String city, @ToolParam(description = "Days ahead", defaultValue = "3") int days,
			@ToolParam(defaultValue = "en") String language, @ToolParam(defaultValue = "true") boolean metric,
			@ToolParam(defaultValue = "celsius") Unit unit, @ToolParam(defaultValue = "1.5") double factor,
			@ToolParam(defaultValue = "[\"news\", \"sport\"]") List<String> tags,
			@ToolParam(defaultValue = "7") Optional<Integer> limit, @ToolParam(defaultValue = "42") String code) {
		return city + "|" + days + "|" + language + "|" + metric + "|" + unit + "|" + factor + "|" + tags + "|"
				+ limit.orElse(null) + "|" + code;
	}

	@Tool(description = "Book a trip", secrets = {})
	public String validated(@Min(1) @Max(14) int days, @NotBlank @Size(max = 40) String city,
			@Pattern(regexp = "[A-Z]{2}") String country, @Positive double budget,
			@Size(min = 1, max = 5) List<String> travellers, @Email @Nullable String email,
			@DecimalMin(value = "0", inclusive = false) BigDecimal deposit) {
		return days + "|" + city + "|" + country + "|" + budget + "|" + travellers + "|" + email + "|" + deposit;
	}

	@Tool(description = "Place an order", secrets = {})
	public String order(@Valid Order order) {
		return order.toString();
	}

	@Tool(description = "Search notes", secrets = {})
	public String injected(@ToolParam(description = "What to look for") String query, ToolContext context,
			SessionMemory memory, LongTermStore store, @ToolCallId String callId, @SessionId String sessionId,
			@AgentName String agentName, @State("userId") @Nullable String userId, @State Map<String, Object> state) {
		return String.join("|", query, context.toolCallId(), memory.sessionId(), callId, sessionId, agentName,
				String.valueOf(userId), String.valueOf(state));
	}

	@Tool(description = "Forward an event as it is", secrets = {})
	public String raw(@RawArguments JsonNode arguments, @ToolCallId String callId) {
		return callId + ":" + arguments;
	}

	@Tool(description = "Send a webhook", secrets = { "token" })
	public String rawDeclared(@RawArguments(schema = """
			{"type": "object",
			 "properties": {"url": {"type": "string"}, "token": {"type": "string"}},
			 "required": ["url"]}
			""") ObjectNode arguments) {
		return arguments.toString();
	}

	/** Jackson 3 reads and writes enums by {@code toString()}. */
	public enum Unit {

		CELSIUS, FAHRENHEIT;

		@Override
		public String toString() {
			return name().toLowerCase();
		}

	}

	@JsonClassDescription("Where and when to forecast")
	public record ForecastInput(@JsonPropertyDescription("City name, e.g. Paris") @NotBlank String city,
			@ToolParam(description = "Days ahead", defaultValue = "3") @Min(1) @Max(14) int days,
			@ToolParam(defaultValue = "celsius") Unit unit, Optional<LocalDate> from,
			@Nullable @Size(max = 3) List<String> details) {
	}

	public record Order(@NotBlank String customer, @Size(min = 1) List<@Valid Line> lines,
			@ToolParam(required = false) @Pattern(regexp = "[A-Z0-9]{6}") String coupon) {
	}

	public record Line(@ToolParam(description = "Product code") String sku, @Min(1) @Max(99) int quantity,
			@ToolParam(defaultValue = "false") boolean giftWrap) {
	}

	public static class ForecastTool implements TypedTool<ForecastInput> {

		@Override
		public String name() {
			return "forecast";
		}

		@Override
		public String description() {
			return "Weather forecast for a city";
		}

		@Override
		public Set<String> secretParameters() {
			return Set.of();
		}

		@Override
		public Object call(ForecastInput input, ToolContext context) {
			return input;
		}

	}

	public static class OrderTool implements TypedTool<Order> {

		@Override
		public String name() {
			return "order";
		}

		@Override
		public String description() {
			return "Place an order";
		}

		@Override
		public Set<String> secretParameters() {
			return Set.of();
		}

		@Override
		public Object call(Order input, ToolContext context) {
			return input;
		}

	}

	public static class EchoTool implements TypedTool<ObjectNode> {

		@Override
		public String name() {
			return "echo";
		}

		@Override
		public String description() {
			return "Echo the arguments";
		}

		@Override
		public Set<String> secretParameters() {
			return Set.of();
		}

		@Override
		public Object call(ObjectNode input, ToolContext context) {
			return input;
		}

	}

}
