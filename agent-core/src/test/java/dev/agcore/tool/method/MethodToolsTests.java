package dev.agcore.tool.method;

import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.Tool;
import dev.agcore.ToolParam;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolDefinitionException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link MethodTools}: discovery on classes, subclasses and proxies, and
 * failing fast on invalid declarations.
 */
class MethodToolsTests {

	private static final ToolContext CONTEXT = new ToolContext("call-1", "session-7", "agent", Map.of("user", "ada"));

	@Test
	void findsDeclaredAndInheritedToolMethods() throws Exception {
		List<ToolCallback> tools = MethodTools.from(new DerivedTools());
		assertThat(tools).extracting((tool) -> tool.spec().name()).containsExactly("bye", "hello");
		assertThat(find(tools, "hello").call("{\"name\":\"Ada\"}", CONTEXT)).isEqualTo("Hello Ada");
	}

	@Test
	void readsAnnotationsDeclaredOnInterface() {
		ToolCallback greet = find(MethodTools.from(new FriendlyGreeter()), "greet");
		assertThat(greet.spec().description()).isEqualTo("Greets someone");
		assertThat(greet.spec().inputSchema().at("/properties/name/description").asString()).isEqualTo("Who to greet");
	}

	@Test
	void callsJdkProxyThroughInterface() throws Exception {
		AtomicInteger proxied = new AtomicInteger();
		Greeter proxy = proxy(Greeter.class, new FriendlyGreeter(), proxied);
		List<ToolCallback> tools = MethodTools.from(proxy, FriendlyGreeter.class, "bean 'greeter'");
		ToolCallback greet = find(tools, "greet");
		assertThat(greet.call("{\"name\":\"Ada\"}", CONTEXT)).isEqualTo("Hi Ada");
		assertThat(proxied).hasValue(1);
		assertThat(greet.source()).isEqualTo("bean 'greeter' (" + FriendlyGreeter.class.getName() + "#greet)");
	}

	@Test
	void callsJdkProxyWhenAnnotationIsOnlyOnTargetClass() throws Exception {
		AtomicInteger proxied = new AtomicInteger();
		Calculator proxy = proxy(Calculator.class, new AnnotatedCalculator(), proxied);
		ToolCallback add = find(MethodTools.from(proxy, AnnotatedCalculator.class, "bean 'calculator'"), "add");
		assertThat(add.call("{\"a\":2,\"b\":3}", CONTEXT)).isEqualTo("5");
		assertThat(proxied).hasValue(1);
	}

	@Test
	void findsInterfaceToolsOnJdkProxyClass() throws Exception {
		Greeter proxy = proxy(Greeter.class, new FriendlyGreeter(), new AtomicInteger());
		ToolCallback greet = find(MethodTools.from(proxy), "greet");
		assertThat(greet.call("{\"name\":\"Bo\"}", CONTEXT)).isEqualTo("Hi Bo");
	}

	@Test
	void callsOverrideOfCglibStyleSubclass() throws Exception {
		WeatherService bean = new WeatherService$$SpringCGLIB$$0();
		for (Class<?> targetClass : List.of(bean.getClass(), WeatherService.class)) {
			List<ToolCallback> tools = MethodTools.from(bean, targetClass, "bean 'weatherService'");
			assertThat(tools).hasSize(1);
			ToolCallback forecast = tools.get(0);
			assertThat(forecast.call("{\"city\":\"Oslo\"}", CONTEXT)).isEqualTo("intercepted: Sunny in Oslo");
			// the user class, not the generated one, names the tool's origin
			assertThat(forecast.source())
				.isEqualTo("bean 'weatherService' (" + WeatherService.class.getName() + "#forecast)");
		}
	}

	@Test
	void inheritsToolAnnotationOnOverride() throws Exception {
		List<ToolCallback> tools = MethodTools.from(new RainyWeatherService());
		assertThat(tools).hasSize(1);
		assertThat(tools.get(0).spec().description()).isEqualTo("Forecast for a city");
		assertThat(tools.get(0).call("{\"city\":\"Bergen\"}", CONTEXT)).isEqualTo("Rain in Bergen");
	}

	@Test
	void injectsToolContextAndLeavesItOutOfSchema() throws Exception {
		ToolCallback whoAmI = find(MethodTools.from(new ContextTools()), "whoAmI");
		JsonNode properties = whoAmI.spec().inputSchema().get("properties");
		assertThat(properties.propertyNames()).containsExactly("greeting");
		assertThat(whoAmI.call("{\"greeting\":\"Hello\"}", CONTEXT)).isEqualTo("Hello ada in session-7");
	}

	@Test
	void propagatesToolExceptionsUnwrapped() {
		ToolCallback explode = find(MethodTools.from(new ContextTools()), "explode");
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> explode.call("{}", CONTEXT))
			.withMessage("boom")
			.isNotInstanceOf(InvocationTargetException.class);
	}

	@Test
	void usesToolNameAndDescriptionOrDefaults() {
		List<ToolCallback> tools = MethodTools.from(new NamingTools());
		assertThat(tools).extracting((tool) -> tool.spec().name()).containsExactly("getWeatherForecast", "get_weather");
		assertThat(find(tools, "get_weather").spec().description()).isEqualTo("Current weather");
		assertThat(find(tools, "getWeatherForecast").spec().description()).isEqualTo("Get weather forecast");
		assertThat(find(tools, "getWeatherForecast").source())
			.isEqualTo(NamingTools.class.getName() + "#getWeatherForecast");
	}

	@Test
	void callsStaticToolMethods() throws Exception {
		ToolCallback twice = find(MethodTools.from(new StaticTools()), "twice");
		assertThat(twice.call("{\"value\":21}", CONTEXT)).isEqualTo("42");
	}

	@Test
	void returnsNoToolsForObjectWithoutToolMethods() {
		assertThat(MethodTools.from(new Object())).isEmpty();
	}

	@Test
	void failsOnTwoToolContextParameters() {
		assertInvalid(new TwoContexts(), TwoContexts.class.getName()
				+ "#twice: at most one ToolContext parameter is allowed, found 2");
	}

	@Test
	void failsOnParameterThatCannotBeRepresented() {
		assertInvalid(new StreamParameter(), StreamParameter.class.getName()
				+ "#upload: parameter 'content': type java.io.InputStream cannot be represented in JSON");
	}

	@Test
	void failsOnThreadParameter() {
		assertInvalid(new ThreadParameter(), ThreadParameter.class.getName()
				+ "#inspect: parameter 'thread': type java.lang.Thread cannot be represented in JSON");
	}

	@Test
	void failsOnAsynchronousReturnType() {
		assertInvalid(new AsyncTool(), AsyncTool.class.getName()
				+ "#later: tools run synchronously; return the value instead of a CompletableFuture");
	}

	@Test
	void failsOnInvalidToolName() {
		assertInvalid(new BadName(), BadName.class.getName()
				+ "#spaced: tool name 'two words' must be 1 to 64 letters, digits, '_' or '-'");
	}

	@Test
	void failsOnDuplicateToolNames() {
		assertThatExceptionOfType(ToolDefinitionException.class)
			.isThrownBy(() -> MethodTools.from(new Overloads(), Overloads.class, "bean 'overloads'"))
			.withMessageStartingWith("Duplicate tool name 'find': declared by bean 'overloads' ("
					+ Overloads.class.getName() + "#find)");
	}

	private static void assertInvalid(Object bean, String problem) {
		assertThatExceptionOfType(ToolDefinitionException.class).isThrownBy(() -> MethodTools.from(bean))
			.withMessage("Invalid @Tool method " + problem);
	}

	private static ToolCallback find(List<ToolCallback> tools, String name) {
		return tools.stream().filter((tool) -> tool.spec().name().equals(name)).findFirst().orElseThrow();
	}

	@SuppressWarnings("unchecked")
	private static <T> T proxy(Class<T> type, T target, AtomicInteger calls) {
		return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type }, (proxy, method, args) -> {
			calls.incrementAndGet();
			try {
				return method.invoke(target, args);
			}
			catch (InvocationTargetException ex) {
				throw ex.getCause();
			}
		});
	}

	static class BaseTools {

		@Tool(secrets = {})
		String hello(String name) {
			return "Hello " + name;
		}

	}

	static class DerivedTools extends BaseTools {

		@Tool(secrets = {})
		String bye() {
			return "Bye";
		}

	}

	interface Greeter {

		@Tool(description = "Greets someone", secrets = {})
		String greet(@ToolParam(description = "Who to greet") String name);

	}

	static class FriendlyGreeter implements Greeter {

		@Override
		public String greet(String name) {
			return "Hi " + name;
		}

	}

	interface Calculator {

		int add(int a, int b);

	}

	static class AnnotatedCalculator implements Calculator {

		@Tool(secrets = {})
		@Override
		public int add(int a, int b) {
			return a + b;
		}

	}

	static class WeatherService {

		@Tool(description = "Forecast for a city", secrets = {})
		String forecast(String city) {
			return "Sunny in " + city;
		}

	}

	// named like a Spring CGLIB proxy, so ClassUtils.getUserClass sees through it
	static class WeatherService$$SpringCGLIB$$0 extends WeatherService {

		@Override
		String forecast(String city) {
			return "intercepted: " + super.forecast(city);
		}

	}

	static class RainyWeatherService extends WeatherService {

		@Override
		String forecast(String city) {
			return "Rain in " + city;
		}

	}

	static class ContextTools {

		@Tool(secrets = {})
		String whoAmI(ToolContext context, String greeting) {
			return greeting + " " + context.state().get("user") + " in " + context.sessionId();
		}

		@Tool(secrets = {})
		String explode() {
			throw new IllegalStateException("boom");
		}

	}

	static class NamingTools {

		@Tool(name = "get_weather", description = "Current weather", secrets = {})
		String weather() {
			return "";
		}

		@Tool(secrets = {})
		String getWeatherForecast() {
			return "";
		}

	}

	static class StaticTools {

		@Tool(secrets = {})
		static int twice(int value) {
			return value * 2;
		}

	}

	static class TwoContexts {

		@Tool(secrets = {})
		String twice(ToolContext first, ToolContext second) {
			return "";
		}

	}

	static class StreamParameter {

		@Tool(secrets = {})
		String upload(String name, InputStream content) {
			return "";
		}

	}

	static class ThreadParameter {

		@Tool(secrets = {})
		String inspect(Thread thread) {
			return "";
		}

	}

	static class AsyncTool {

		@Tool(secrets = {})
		CompletableFuture<String> later() {
			return CompletableFuture.completedFuture("");
		}

	}

	static class BadName {

		@Tool(name = "two words", secrets = {})
		String spaced() {
			return "";
		}

	}

	static class Overloads {

		@Tool(secrets = {})
		String find(String query) {
			return "";
		}

		@Tool(secrets = {})
		String find(String query, int limit) {
			return "";
		}

	}

}
