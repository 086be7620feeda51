package dev.agcore.tool.binding;

import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.agcore.json.AgentJson;
import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.method.MethodTools;
import dev.agcore.tool.schema.ToolFixtures;
import dev.agcore.tool.schema.ToolFixtures.ForecastInput;
import dev.agcore.tool.schema.ToolFixtures.Unit;
import dev.agcore.tool.typed.TypedTools;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Round trips for the tools of {@link ToolFixtures}: arguments a model could send bind
 * as documented, defaults fill what it leaves out, and bad arguments give the documented
 * messages before the tool runs.
 */
class ArgumentBindingTests {

	private static final ToolContext CONTEXT = new ToolContext("call-1", "session-1", "agent",
			Map.of("userId", "u-7"));

	private final Map<String, ToolCallback> tools = byName(MethodTools.from(new ToolFixtures()));

	private final RecordingForecast forecast = new RecordingForecast();

	private final ToolCallback typedForecast = TypedTools.from(this.forecast);

	private final ToolCallback typedOrder = TypedTools.from(new ToolFixtures.OrderTool());

	@ParameterizedTest
	@CsvSource(delimiterString = " => ", textBlock = """
			{"city":"Oslo"} => Oslo|3|en|true|celsius|1.5|[news, sport]|7|42
			{"city":"Oslo","days":5,"limit":2,"code":"x"} => Oslo|5|en|true|celsius|1.5|[news, sport]|2|x
			{"city":"Oslo","language":"","unit":null,"tags":null} => Oslo|3|en|true|celsius|1.5|[news, sport]|7|42
			{"city":"Oslo","metric":false,"unit":"fahrenheit","tags":[]} => Oslo|3|en|false|fahrenheit|1.5|[]|7|42
			""")
	void appliesDefaultsToWhatTheModelLeavesOut(String arguments, String received) throws Exception {
		assertThat(this.tools.get("defaults").call(arguments, CONTEXT)).isEqualTo(received);
	}

	@Test
	void bindsValidArgumentsOfConstrainedParameters() throws Exception {
		assertThat(this.tools.get("validated").call("""
				{"days": 14, "city": "Lyon", "country": "FR", "budget": 0.5, "travellers": ["ada"], "deposit": 0.01}
				""", CONTEXT)).isEqualTo("14|Lyon|FR|0.5|[ada]|null|0.01");
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			{"days":15}                 | Parameter 'days' must be less than or equal to 14
			{"days":0}                  | Parameter 'days' must be greater than or equal to 1
			{"city":"  "}               | Parameter 'city' must not be blank
			{"city":""}                 | Parameter 'city' must not be blank
			{"country":"fr"}            | Parameter 'country' must match "[A-Z]{2}"
			{"budget":0}                | Parameter 'budget' must be greater than 0
			{"travellers":[]}           | Parameter 'travellers' size must be between 1 and 5
			{"email":"not an address"}  | Parameter 'email' must be a well-formed email address
			{"deposit":0}               | Parameter 'deposit' must be greater than 0
			""")
	void reportsConstraintViolationsBeforeTheToolRuns(String change, String message) {
		String arguments = merge("""
				{"days": 3, "city": "Lyon", "country": "FR", "budget": 10, "travellers": ["ada"], "deposit": 1}
				""", change);
		assertThatExceptionOfType(ToolArgumentsException.class)
			.isThrownBy(() -> this.tools.get("validated").call(arguments, CONTEXT))
			.withMessage(message);
	}

	@Test
	void reportsEveryViolationInPathOrder() {
		assertThatExceptionOfType(ToolArgumentsException.class)
			.isThrownBy(() -> this.tools.get("validated").call("""
					{"days": 20, "city": "", "country": "FR", "budget": 10, "travellers": ["ada"], "deposit": 1}
					""", CONTEXT))
			.withMessage("Parameter 'city' must not be blank; Parameter 'days' must be less than or equal to 14");
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			{"order":{"customer":"ada","lines":[{"sku":"A","quantity":0}]}}               | Parameter 'order.lines[0].quantity' must be greater than or equal to 1
			{"order":{"customer":"ada","lines":[]}}                                     | Parameter 'order.lines' size must be between 1 and 2147483647
			{"order":{"customer":"ada","lines":[{"sku":"A","quantity":1}],"coupon":"x"}} | Parameter 'order.coupon' must match "[A-Z0-9]{6}"
			{"order":{"customer":"ada","lines":[{"quantity":1}]}}                        | Missing required parameter 'order.lines[0].sku'
			""")
	void validatesNestedRecords(String arguments, String message) {
		assertThatExceptionOfType(ToolArgumentsException.class)
			.isThrownBy(() -> this.tools.get("order").call(arguments, CONTEXT))
			.withMessage(message);
	}

	@Test
	void appliesDefaultsInsideNestedRecordsAndIgnoresEmptyOptionals() throws Exception {
		assertThat(this.tools.get("order").call("""
				{"order":{"customer":"ada","lines":[{"sku":"A","quantity":2}],"coupon":""}}
				""", CONTEXT)).isEqualTo("Order[customer=ada, lines=[Line[sku=A, quantity=2, giftWrap=false]], coupon=null]");
	}

	@Test
	void bindsTypedToolInputWithDefaults() throws Exception {
		this.typedForecast.call("{\"city\":\"Paris\",\"from\":\"\"}", CONTEXT);
		assertThat(this.forecast.received).isEqualTo(new ForecastInput("Paris", 3, Unit.CELSIUS, Optional.empty(), null));
		this.typedForecast.call("{\"city\":\"Paris\",\"days\":7,\"unit\":\"fahrenheit\",\"from\":\"2025-06-01\","
				+ "\"details\":[\"wind\"]}", CONTEXT);
		assertThat(this.forecast.received).isEqualTo(new ForecastInput("Paris", 7, Unit.FAHRENHEIT,
				Optional.of(LocalDate.of(2025, 6, 1)), List.of("wind")));
	}

	@Test
	void returnsTypedToolResultAsJson() throws Exception {
		assertThat(this.typedOrder.call("{\"customer\":\"ada\",\"lines\":[{\"sku\":\"A\",\"quantity\":1}]}", CONTEXT))
			.isEqualTo("{\"customer\":\"ada\",\"lines\":[{\"sku\":\"A\",\"quantity\":1,\"giftWrap\":false}],"
					+ "\"coupon\":null}");
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			{}                                           | Missing required parameter 'city'
			{"city":null}                                | Missing required parameter 'city'
			{"city":"Paris","days":"x"}                  | Parameter 'days' must be integer, got "x"
			{"city":"Paris","days":20}                   | Parameter 'days' must be less than or equal to 14
			{"city":" ","days":0}                        | Parameter 'city' must not be blank; Parameter 'days' must be greater than or equal to 1
			{"city":"Paris","unit":"kelvin"}             | Parameter 'unit' must be one of ["celsius", "fahrenheit"], got "kelvin"
			{"city":"Paris","from":"tomorrow"}           | Parameter 'from' must be string in ISO-8601 format, got "tomorrow"
			{"city":"Paris","details":["a","b","c","d"]} | Parameter 'details' size must be between 0 and 3
			[]                                           | Arguments must be a JSON object
			""")
	void reportsBadTypedToolArguments(String arguments, String message) {
		assertThatExceptionOfType(ToolArgumentsException.class)
			.isThrownBy(() -> this.typedForecast.call(arguments, CONTEXT))
			.withMessage(message);
		assertThat(this.forecast.received).isNull();
	}

	@Test
	void validatesNestedRecordsOfTypedTools() {
		assertThatExceptionOfType(ToolArgumentsException.class)
			.isThrownBy(() -> this.typedOrder.call("{\"customer\":\"ada\",\"lines\":[{\"sku\":\"A\",\"quantity\":100}]}",
					CONTEXT))
			.withMessage("Parameter 'lines[0].quantity' must be less than or equal to 99");
	}

	@Test
	void passesRawArgumentsUntouched() throws Exception {
		assertThat(this.tools.get("raw").call("{\"a\":\"\",\"b\":null,\"c\":[1]}", CONTEXT))
			.isEqualTo("call-1:{\"a\":\"\",\"b\":null,\"c\":[1]}");
		assertThat(this.tools.get("raw").call("[1,2]", CONTEXT)).isEqualTo("call-1:[1,2]");
		assertThat(this.tools.get("raw").call("", CONTEXT)).isEqualTo("call-1:{}");
		assertThat(TypedTools.from(new ToolFixtures.EchoTool()).call("{\"x\":\"\"}", CONTEXT)).isEqualTo("{\"x\":\"\"}");
	}

	@Test
	void refusesNonObjectForObjectNodeRawArguments() {
		assertThatExceptionOfType(ToolArgumentsException.class)
			.isThrownBy(() -> this.tools.get("rawDeclared").call("[1]", CONTEXT))
			.withMessage("Arguments must be a JSON object");
		assertThatExceptionOfType(ToolArgumentsException.class)
			.isThrownBy(() -> this.tools.get("raw").call("{\"a\":", CONTEXT))
			.withMessageStartingWith("Arguments are not valid JSON: ");
	}

	// overlays one JSON object on another, for compact test tables
	private static String merge(String base, String change) {
		ObjectNode merged = (ObjectNode) AgentJson.mapper().readTree(base);
		merged.setAll((ObjectNode) AgentJson.mapper().readTree(change));
		return merged.toString();
	}

	private static Map<String, ToolCallback> byName(List<ToolCallback> tools) {
		Map<String, ToolCallback> byName = new HashMap<>();
		tools.forEach((tool) -> byName.put(tool.spec().name(), tool));
		return byName;
	}

	static final class RecordingForecast extends ToolFixtures.ForecastTool {

		@Nullable ForecastInput received;

		@Override
		public Object call(ForecastInput input, ToolContext context) {
			this.received = input;
			return "ok";
		}

	}

}
