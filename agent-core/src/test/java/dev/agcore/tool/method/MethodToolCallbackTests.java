package dev.agcore.tool.method;

import java.io.IOException;
import java.lang.reflect.Method;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.agcore.Tool;
import dev.agcore.ToolParam;
import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link MethodToolCallback}: argument binding, errors for the model and
 * result conversion.
 */
class MethodToolCallbackTests {

	private static final ToolContext CONTEXT = new ToolContext("call-1", "session-1", "agent", Map.of());

	private final BindingTools tools = new BindingTools();

	@Test
	void bindsPrimitivesAndStrings() throws Exception {
		assertThat(call("forecast", "{\"city\":\"Paris\",\"days\":3}")).isEqualTo("Paris for 3 days");
	}

	@Test
	void bindsNestedRecordsListsAndEnums() throws Exception {
		String result = call("plan", """
				{"trip": {"name": "Tour", "start": "2025-06-01",
				  "stops": [{"city": "Lyon", "nights": 2, "unit": "celsius"},
				            {"city": "Nice", "nights": 1, "hotel": "Negresco"}]}}
				""");
		Trip trip = (Trip) this.tools.received.get(0);
		assertThat(trip.name()).isEqualTo("Tour");
		assertThat(trip.start()).isEqualTo(LocalDate.of(2025, 6, 1));
		assertThat(trip.stops()).containsExactly(new Stop("Lyon", 2, null, Unit.CELSIUS),
				new Stop("Nice", 1, "Negresco", null));
		// a non-String result comes back as JSON, written by the same mapper
		assertThat(result).contains("\"name\":\"Tour\"").contains("\"unit\":\"celsius\"");
	}

	@Test
	void bindsAbsentOptionalParametersToEmptyValues() throws Exception {
		call("optionals", "{}");
		assertThat(this.tools.received).containsExactly(null, Optional.empty(), null, 0, false);
	}

	@Test
	void bindsPresentOptionalParameters() throws Exception {
		call("optionals", "{\"note\":\"hi\",\"limit\":5,\"unit\":\"fahrenheit\",\"page\":2,\"flag\":true}");
		assertThat(this.tools.received).containsExactly("hi", Optional.of(5), Unit.FAHRENHEIT, 2, true);
	}

	@Test
	void treatsEmptyStringAndNullForOptionalParametersAsAbsent() throws Exception {
		call("optionals", "{\"note\":\"\",\"limit\":\"\",\"unit\":\"\",\"page\":null,\"flag\":\"\"}");
		assertThat(this.tools.received).containsExactly(null, Optional.empty(), null, 0, false);
	}

	@Test
	void passesEmptyStringForRequiredParameterAsIs() throws Exception {
		assertThat(call("forecast", "{\"city\":\"\",\"days\":1}")).isEqualTo(" for 1 days");
	}

	@Test
	void bindsCollectionsAndFreeFormMaps() throws Exception {
		call("collect", "{\"tags\":[\"a\",\"b\"],\"data\":{\"x\":1,\"y\":[true]}}");
		assertThat(this.tools.received).containsExactly(List.of("a", "b"), Map.of("x", 1, "y", List.of(true)));
	}

	@Test
	void treatsBlankArgumentsAsEmptyObject() throws Exception {
		assertThat(call("optionals", "")).isEqualTo("ok");
		assertThat(call("optionals", "  ")).isEqualTo("ok");
	}

	@Test
	void ignoresUnknownArguments() throws Exception {
		assertThat(call("forecast", "{\"city\":\"Rome\",\"days\":2,\"verbose\":true}")).isEqualTo("Rome for 2 days");
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			forecast | [1,2]                                     | Arguments must be a JSON object
			forecast | "Paris"                                   | Arguments must be a JSON object
			forecast | null                                      | Arguments must be a JSON object
			forecast | {}                                        | Missing required parameter 'city'
			forecast | {"city":null,"days":1}                    | Missing required parameter 'city'
			forecast | {"city":"Paris"}                          | Missing required parameter 'days'
			forecast | {"city":"Paris","days":"abc"}             | Parameter 'days' must be integer, got "abc"
			forecast | {"city":"Paris","days":true}              | Parameter 'days' must be integer, got true
			forecast | {"city":"Paris","days":""}                | Parameter 'days' must be integer, got ""
			forecast | {"city":{"name":"Paris"},"days":1}        | Parameter 'city' must be string, got {"name":"Paris"}
			convert  | {"unit":"kelvin"}                         | Parameter 'unit' must be one of ["celsius", "fahrenheit"], got "kelvin"
			convert  | {"unit":"CELSIUS"}                        | Parameter 'unit' must be one of ["celsius", "fahrenheit"], got "CELSIUS"
			plan     | {"trip":"a trip"}                         | Parameter 'trip' must be object, got "a trip"
			plan     | {"trip":{"name":"T","start":"2025-06-01","stops":{}}} | Parameter 'trip.stops' must be array, got {}
			plan     | {"trip":{"name":"T","start":"2025-06-01","stops":[{"city":"A","nights":1},{"city":"B","nights":"x"}]}} | Parameter 'trip.stops[1].nights' must be integer, got "x"
			plan     | {"trip":{"name":"T","start":"2025-06-01","stops":[{"nights":1}]}} | Missing required parameter 'trip.stops[0].city'
			plan     | {"trip":{"name":"T","start":"2025-06-01","stops":[{"city":"A","nights":1,"unit":"K"}]}} | Parameter 'trip.stops[0].unit' must be one of ["celsius", "fahrenheit"], got "K"
			plan     | {"trip":{"name":"T","start":"next monday","stops":[]}} | Parameter 'trip.start' must be string in ISO-8601 format, got "next monday"
			plan     | {"trip":{"name":"","start":"2025-06-01","stops":[]}} | Parameter 'trip' is invalid: 'name' must not be empty
			""")
	void reportsBadArgumentsForTheModel(String tool, String arguments, String message) {
		assertThatExceptionOfType(ToolArgumentsException.class).isThrownBy(() -> call(tool, arguments))
			.withMessage(message);
		assertThat(this.tools.received).isEmpty();
	}

	@Test
	void reportsMalformedJson() {
		assertThatExceptionOfType(ToolArgumentsException.class)
			.isThrownBy(() -> call("forecast", "{\"city\": \"Paris\""))
			.withMessageStartingWith("Arguments are not valid JSON: ")
			.withMessageNotContaining("\n");
	}

	@Test
	void returnsEmptyTextForVoidAndNull() throws Exception {
		assertThat(call("nothing", "{}")).isEmpty();
		assertThat(call("nullResult", "{}")).isEmpty();
	}

	@Test
	void propagatesToolExceptionsUnwrapped() {
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> call("fails", "{}"))
			.withMessage("disk full")
			.withNoCause();
	}

	@Test
	void bindsWithCustomMapper() throws Exception {
		JsonMapper snakeCase = JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
		ToolCallback tool = MethodToolCallback.builder(this.tools, method("camel")).mapper(snakeCase).build();
		assertThat(tool.spec().inputSchema().at("/properties/value/properties").propertyNames())
			.containsExactly("first_name");
		assertThat(tool.call("{\"value\":{\"first_name\":\"Ada\"}}", CONTEXT)).isEqualTo("{\"first_name\":\"Ada\"}");
	}

	private String call(String tool, String arguments) throws Exception {
		this.tools.received.clear();
		return MethodToolCallback.builder(this.tools, method(tool)).build().call(arguments, CONTEXT);
	}

	private static Method method(String name) {
		return Arrays.stream(BindingTools.class.getDeclaredMethods())
			.filter((method) -> method.getName().equals(name))
			.findFirst()
			.orElseThrow();
	}

	enum Unit {

		CELSIUS, FAHRENHEIT;

		@Override
		public String toString() {
			return name().toLowerCase();
		}

	}

	record Stop(String city, int nights, @Nullable String hotel, @ToolParam(required = false) @Nullable Unit unit) {
	}

	record Trip(String name, LocalDate start, List<Stop> stops) {

		Trip {
			if (name.isEmpty()) {
				throw new IllegalArgumentException("'name' must not be empty");
			}
		}

	}

	record Camel(String firstName) {
	}

	@SuppressWarnings("unused")
	static class BindingTools {

		final List<@Nullable Object> received = new ArrayList<>();

		@Tool(secrets = {})
		String forecast(String city, int days) {
			this.received.add(city);
			return city + " for " + days + " days";
		}

		@Tool(secrets = {})
		Trip plan(Trip trip) {
			this.received.add(trip);
			return trip;
		}

		@Tool(secrets = {})
		String optionals(@ToolParam(required = false) String note, Optional<Integer> limit, @Nullable Unit unit,
				@ToolParam(required = false) int page, @ToolParam(required = false) boolean flag) {
			this.received.addAll(Arrays.asList(note, limit, unit, page, flag));
			return "ok";
		}

		@Tool(secrets = {})
		String convert(Unit unit) {
			this.received.add(unit);
			return unit.name();
		}

		@Tool(secrets = {})
		void collect(List<String> tags, Map<String, Object> data) {
			this.received.add(tags);
			this.received.add(data);
		}

		@Tool(secrets = {})
		void nothing() {
		}

		@Tool(secrets = {})
		@Nullable String nullResult() {
			return null;
		}

		@Tool(secrets = {})
		String fails() throws IOException {
			throw new IOException("disk full");
		}

		@Tool(secrets = {})
		Camel camel(Camel value) {
			return value;
		}

	}

}
