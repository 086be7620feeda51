package dev.agcore.autoconfigure.tool;

import java.io.InputStream;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.agcore.Tool;
import dev.agcore.ToolParam;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.ToolRegistry;
import dev.agcore.tool.ToolSpec;
import dev.agcore.tool.typed.TypedTool;
import dev.agcore.json.AgentJson;
import org.aopalliance.intercept.MethodInterceptor;
import org.junit.jupiter.api.Test;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ToolAutoConfiguration}.
 */
class ToolAutoConfigurationTests {

	private static final ToolContext CONTEXT = new ToolContext("call-1", "session-1", "agent", Map.of());

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(ConversationStoreAutoConfiguration.class, ToolAutoConfiguration.class));

	@Test
	void registryIsEmptyWithoutTools() {
		this.contextRunner.run((context) -> assertThat(context).getBean(ToolRegistry.class)
			.satisfies((registry) -> assertThat(registry.names()).isEmpty()));
	}

	@Test
	void findsToolMethodsOfComponentBeans() {
		this.contextRunner.withBean("weatherTools", WeatherTools.class).run((context) -> {
			ToolRegistry registry = context.getBean(ToolRegistry.class);
			assertThat(registry.names()).containsExactly("get_weather");
			ToolCallback tool = registry.find("get_weather").orElseThrow();
			assertThat(tool.call("{\"city\":\"Paris\"}", CONTEXT)).contains("Sunny in Paris");
			assertThat(tool.source()).contains("bean 'weatherTools'");
		});
	}

	@Test
	void findsToolMethodsOfBeanMethodsAndInheritedMethods() {
		this.contextRunner.withUserConfiguration(BeanMethodToolsConfiguration.class).run((context) -> {
			ToolRegistry registry = context.getBean(ToolRegistry.class);
			assertThat(registry.names()).containsExactlyInAnyOrder("get_weather", "base_tool", "child_tool");
			assertThat(registry.find("base_tool").orElseThrow().call("{}", CONTEXT)).contains("base");
		});
	}

	@Test
	void findsToolMethodsOfFullConfigurationClass() {
		this.contextRunner.withUserConfiguration(FullModeToolsConfiguration.class).run((context) -> {
			assertThat(context.getBean(FullModeToolsConfiguration.class).getClass().getName()).contains("$$");
			ToolRegistry registry = context.getBean(ToolRegistry.class);
			assertThat(registry.names()).containsExactly("config_tool");
			assertThat(registry.find("config_tool").orElseThrow().call("{}", CONTEXT)).contains("from configuration");
		});
	}

	@Test
	void findsToolMethodsOfClassProxyAndCallsThroughTheProxy() {
		this.contextRunner.withUserConfiguration(ClassProxyConfiguration.class).run((context) -> {
			assertThat(context.getBean("advisedWeather").getClass().getName()).contains("$$");
			ToolCallback tool = context.getBean(ToolRegistry.class).find("get_weather").orElseThrow();
			assertThat(tool.call("{\"city\":\"Oslo\"}", CONTEXT)).contains("Sunny in Oslo").contains("(advised)");
		});
	}

	@Test
	void findsToolMethodsOfInterfaceProxy() {
		this.contextRunner.withUserConfiguration(InterfaceProxyConfiguration.class).run((context) -> {
			ToolCallback tool = context.getBean(ToolRegistry.class).find("current_time").orElseThrow();
			assertThat(tool.call("{}", CONTEXT)).contains("12:00").contains("(advised)");
		});
	}

	@Test
	void includesToolCallbackBeans() {
		this.contextRunner.withBean("echoTool", ToolCallback.class, () -> new EchoTool("echo"))
			.withBean("weatherTools", WeatherTools.class)
			.run((context) -> assertThat(context.getBean(ToolRegistry.class).names())
				.containsExactlyInAnyOrder("echo", "get_weather"));
	}

	@Test
	void duplicateToolNamesFailNamingBothBeans() {
		this.contextRunner.withBean("weatherTools", WeatherTools.class)
			.withBean("otherWeatherTools", OtherWeatherTools.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context).getFailure()
					.rootCause()
					.isInstanceOf(AgentConfigurationException.class)
					.hasMessageContaining("Duplicate tool name 'get_weather'")
					.hasMessageContaining("bean 'weatherTools'")
					.hasMessageContaining("bean 'otherWeatherTools'");
			});
	}

	@Test
	void duplicateNameOfToolCallbackBeanFailsNamingBothBeans() {
		this.contextRunner.withBean("weatherTools", WeatherTools.class)
			.withBean("weatherCallback", ToolCallback.class, () -> new EchoTool("get_weather"))
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("Duplicate tool name 'get_weather'")
				.hasMessageContaining("bean 'weatherCallback'")
				.hasMessageContaining("bean 'weatherTools'"));
	}

	@Test
	void userToolRegistryWins() {
		ToolRegistry registry = ToolRegistry.empty();
		this.contextRunner.withBean(ToolRegistry.class, () -> registry)
			.withBean("weatherTools", WeatherTools.class)
			.run((context) -> assertThat(context).getBean(ToolRegistry.class).isSameAs(registry));
	}

	@Test
	void wrapsTypedToolBeans() {
		this.contextRunner.withBean("shout", ShoutTool.class).run((context) -> {
			ToolCallback tool = context.getBean(ToolRegistry.class).find("shout").orElseThrow();
			assertThat(tool.spec().inputSchema().get("required").toString()).isEqualTo("[\"text\"]");
			assertThat(tool.call("{\"text\": \"hi\"}", CONTEXT)).isEqualTo("HI");
			assertThat(tool.metadata().permission().value()).isEqualTo("read-only");
			assertThat(tool.source()).startsWith("bean 'shout'");
		});
	}

	@Test
	void typedToolNamedLikeAToolMethodFailsNamingBothBeans() {
		this.contextRunner.withBean("weatherTools", WeatherTools.class)
			.withBean("weatherShout", ShoutTool.class, () -> new ShoutTool("get_weather"))
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageStartingWith("Duplicate tool name 'get_weather': declared by bean 'weatherShout'")
				.hasMessageContaining("bean 'weatherTools'"));
	}

	@Test
	void twoToolContextParametersFailNamingBeanAndMethod() {
		assertInvalid(TwoContexts.class, "Bean 'invalid' declares an invalid tool. Invalid @Tool method "
				+ TwoContexts.class.getName() + "#twice: at most one ToolContext parameter is allowed, found 2");
	}

	@Test
	void unsupportedParameterTypeFailsNamingBeanAndMethod() {
		assertInvalid(StreamParameter.class, "Bean 'invalid' declares an invalid tool. Invalid @Tool method "
				+ StreamParameter.class.getName() + "#upload: parameter 'content': type java.io.InputStream cannot "
				+ "be represented in JSON");
	}

	@Test
	void plainToolWithoutSecretsDeclarationStartsWhileSecretResolutionIsOff() {
		this.contextRunner.withBean("plain", NoSecretsDeclaration.class)
			.run((context) -> assertThat(context).hasNotFailed()
				.getBean(ToolRegistry.class)
				.satisfies((registry) -> assertThat(registry.names()).containsExactly("lookup")));
	}

	@Test
	void secretResolutionRefusesToStartListingEveryToolWithoutSecretsDeclaration() {
		this.contextRunner.withBean("plain", NoSecretsDeclaration.class)
			.withBean("other", OtherNoSecretsDeclaration.class)
			.withBean("weatherTools", WeatherTools.class)
			.withPropertyValues("agent.secrets.allowed=BILLING_API_KEY")
			.run((context) -> assertThat(configurationFailure(context))
				.hasMessageContaining("agent.secrets.allowed")
				.hasMessageContaining("lookup (")
				.hasMessageContaining("find (")
				.hasMessageNotContaining("get_weather"));
	}

	@Test
	void duplicateNamesInOneBeanFailNamingBothMethods() {
		this.contextRunner.withBean("invalid", SameNameTwice.class)
			.run((context) -> assertThat(configurationFailure(context))
				.hasMessageStartingWith("Bean 'invalid' declares an invalid tool. Duplicate tool name 'lookup'")
				.hasMessageContaining("#first")
				.hasMessageContaining("#second"));
	}

	@Test
	void invalidTypedToolFailsNamingTheBean() {
		this.contextRunner.withBean("invalid", ShoutTool.class, () -> new ShoutTool("not a name"))
			.run((context) -> assertThat(configurationFailure(context)).hasMessage("Bean 'invalid' declares an invalid tool. Invalid typed tool bean 'invalid' ("
						+ ShoutTool.class.getName() + "): tool name 'not a name' must be 1 to 64 letters, digits, "
						+ "'_' or '-'"));
	}

	private void assertInvalid(Class<?> type, String message) {
		this.contextRunner.withBean("invalid", type)
			.run((context) -> assertThat(configurationFailure(context)).hasMessage(message));
	}

	// the core's ToolDefinitionException is kept as the cause
	private static Throwable configurationFailure(AssertableApplicationContext context) {
		Throwable failure = context.getStartupFailure();
		while (failure != null && !(failure instanceof AgentConfigurationException)) {
			failure = failure.getCause();
		}
		assertThat(failure).as("AgentConfigurationException in %s", context.getStartupFailure()).isNotNull();
		return failure;
	}

	record ShoutInput(String text) {
	}

	static class ShoutTool implements TypedTool<ShoutInput> {

		private final String name;

		ShoutTool() {
			this("shout");
		}

		ShoutTool(String name) {
			this.name = name;
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public String description() {
			return "Repeat a text in capitals";
		}

		@Override
		public Set<String> secretParameters() {
			return Set.of();
		}

		@Override
		public ToolPermission permission() {
			return ToolPermission.READ_ONLY;
		}

		@Override
		public Object call(ShoutInput input, ToolContext context) {
			return input.text().toUpperCase(Locale.ROOT);
		}

	}

	static class TwoContexts {

		@Tool(description = "Twice", secrets = {})
		String twice(ToolContext first, ToolContext second) {
			return "";
		}

	}

	static class StreamParameter {

		@Tool(description = "Upload", secrets = {})
		String upload(InputStream content) {
			return "";
		}

	}

	static class OtherNoSecretsDeclaration {

		@Tool(name = "find", description = "Find")
		String find(String key) {
			return key;
		}

	}

	static class NoSecretsDeclaration {

		@Tool(description = "Look up")
		String lookup(String key) {
			return key;
		}

	}

	static class SameNameTwice {

		@Tool(name = "lookup", description = "First", secrets = {})
		String first(String key) {
			return key;
		}

		@Tool(name = "lookup", description = "Second", secrets = {})
		String second(String key) {
			return key;
		}

	}

	static class WeatherTools {

		@Tool(name = "get_weather", description = "Current weather in a city", secrets = {})
		String getWeather(@ToolParam(description = "City name") String city) {
			return "Sunny in " + city;
		}

	}

	static class OtherWeatherTools {

		@Tool(name = "get_weather", description = "Weather, again", secrets = {})
		String weather(String city) {
			return "Rain in " + city;
		}

	}

	static class BaseTools {

		@Tool(name = "base_tool", description = "Declared on the superclass", secrets = {})
		public String base() {
			return "from base";
		}

	}

	static class ChildTools extends BaseTools {

		@Tool(name = "child_tool", description = "Declared on the subclass", secrets = {})
		public String child() {
			return "from child";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BeanMethodToolsConfiguration {

		@Bean
		WeatherTools weatherTools() {
			return new WeatherTools();
		}

		@Bean
		ChildTools childTools() {
			return new ChildTools();
		}

	}

	// full mode with a bean method: Spring subclasses it with CGLIB
	@Configuration
	static class FullModeToolsConfiguration {

		@Bean
		String greeting() {
			return "hello";
		}

		@Tool(name = "config_tool", description = "A tool on a configuration class", secrets = {})
		public String configTool() {
			return "from configuration";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ClassProxyConfiguration {

		@Bean
		WeatherTools advisedWeather() {
			ProxyFactory factory = new ProxyFactory(new WeatherTools());
			factory.setProxyTargetClass(true);
			factory.addAdvice((MethodInterceptor) (invocation) -> invocation.proceed() + " (advised)");
			return (WeatherTools) factory.getProxy();
		}

	}

	interface Clock {

		String now();

	}

	static class ClockTools implements Clock {

		@Override
		@Tool(name = "current_time", description = "The current time", secrets = {})
		public String now() {
			return "12:00";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class InterfaceProxyConfiguration {

		@Bean
		Clock clock() {
			ProxyFactory factory = new ProxyFactory(new ClockTools());
			factory.addInterface(Clock.class);
			factory.addAdvice((MethodInterceptor) (invocation) -> invocation.proceed() + " (advised)");
			return (Clock) factory.getProxy();
		}

	}

	record EchoTool(String name) implements ToolCallback {

		@Override
		public ToolSpec spec() {
			return new ToolSpec(this.name, "Echoes its arguments", AgentJson.mapper().createObjectNode());
		}

		@Override
		public String call(String arguments, ToolContext context) {
			return arguments;
		}

	}

}
