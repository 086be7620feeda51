package dev.agcore.autoconfigure.tool;

import java.util.Map;
import java.util.Set;

import dev.agcore.ToolParam;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.message.ToolCall;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolRegistry;
import dev.agcore.tool.binding.ArgumentValidator;
import dev.agcore.tool.binding.BeanValidationArgumentValidator;
import dev.agcore.tool.binding.ToolBinding;
import dev.agcore.tool.typed.TypedTool;
import jakarta.validation.MessageInterpolator;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.validation.beanvalidation.LocalValidatorFactoryBean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for the {@link ToolBinding} that {@link ToolAutoConfiguration} shares between
 * all tools.
 */
class ToolBindingTests {

	private static final ToolContext CONTEXT = new ToolContext("call-1", "session-1", "agent", Map.of());

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(ConversationStoreAutoConfiguration.class, ToolAutoConfiguration.class))
		.withBean("forecastTool", ForecastTool.class);

	@Test
	void withoutMapperOrValidatorBeansTheDefaultsAreUsed() {
		this.contextRunner.run((context) -> {
			ToolBinding binding = context.getBean(ToolBinding.class);
			assertThat(binding.mapper()).isSameAs(AgentJson.mapper());
			// Hibernate Validator is on the test class path
			assertThat(binding.validator()).isInstanceOf(BeanValidationArgumentValidator.class);
		});
	}

	@Test
	void applicationJsonMapperBindsArgumentsAndShapesSchemas() {
		JsonMapper snakeCase = JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
		this.contextRunner.withBean(JsonMapper.class, () -> snakeCase).run((context) -> {
			assertThat(context.getBean(ToolBinding.class).mapper()).isSameAs(snakeCase);
			ToolCallback tool = context.getBean(ToolRegistry.class).find("forecast").orElseThrow();
			assertThat(tool.spec().inputSchema().get("properties").propertyNames()).containsExactly("city_name",
					"days");
			assertThat(tool.call("{\"city_name\": \"Oslo\", \"days\": 2}", CONTEXT)).isEqualTo("Oslo for 2 days");
		});
	}

	@Test
	void applicationValidatorChecksArguments() {
		LocalValidatorFactoryBean validator = new LocalValidatorFactoryBean();
		validator.setMessageInterpolator(new TaggingInterpolator());
		this.contextRunner.withBean("validator", LocalValidatorFactoryBean.class, () -> validator).run((context) -> {
			ToolCallback tool = context.getBean(ToolRegistry.class).find("forecast").orElseThrow();
			assertThatExceptionOfType(ToolArgumentsException.class)
				.isThrownBy(() -> tool.call("{\"cityName\": \"Oslo\", \"days\": 0}", CONTEXT))
				.withMessage("Parameter 'days' application says: {jakarta.validation.constraints.Min.message}");
		});
	}

	@Test
	void bootValidatorViolationIsAnsweredToTheModel() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				ScriptedChatModel.toolCalls(new ToolCall("call-1", "forecast", "{\"cityName\": \"Oslo\", \"days\": 0}")),
				ScriptedChatModel.toolCalls(new ToolCall("call-2", "forecast", "{\"cityName\": \"Oslo\", \"days\": 1}")),
				ScriptedChatModel.text("Sunny."));
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class, ChatModelAutoConfiguration.class,
					ToolAutoConfiguration.class, ConversationStoreAutoConfiguration.class,
					AgentMetricsAutoConfiguration.class, AgentAutoConfiguration.class))
			.withBean("forecastTool", ForecastTool.class)
			.withBean("scripted", ChatModel.class, () -> model)
			.run((context) -> {
				assertThat(context).hasBean("beanValidationToolBinding");
				AgentResult result = context.getBean(Agent.class).call("s1", "Weather in Oslo?");
				assertThat(result.toolExecutions()).extracting((execution) -> execution.result())
					.containsExactly("Error: invalid arguments for tool 'forecast': Parameter 'days' must be greater "
							+ "than or equal to 1", "Oslo for 1 days");
			});
	}

	@Test
	void userBindingWins() {
		ToolBinding binding = ToolBinding.of(AgentJson.mapper()).withValidator(ArgumentValidator.NONE);
		this.contextRunner.withBean(ToolBinding.class, () -> binding).run((context) -> {
			assertThat(context).getBean(ToolBinding.class).isSameAs(binding);
			ToolCallback tool = context.getBean(ToolRegistry.class).find("forecast").orElseThrow();
			assertThat(tool.call("{\"cityName\": \"Oslo\", \"days\": 0}", CONTEXT)).isEqualTo("Oslo for 0 days");
		});
	}

	record ForecastInput(@ToolParam(description = "City") String cityName, @Min(1) @Max(14) int days) {
	}

	static class ForecastTool implements TypedTool<ForecastInput> {

		@Override
		public String name() {
			return "forecast";
		}

		@Override
		public String description() {
			return "Weather forecast";
		}

		@Override
		public Set<String> secretParameters() {
			return Set.of();
		}

		@Override
		public Object call(ForecastInput input, ToolContext context) {
			return input.cityName() + " for " + input.days() + " days";
		}

	}

	static class TaggingInterpolator implements MessageInterpolator {

		@Override
		public String interpolate(String messageTemplate, Context context) {
			return "application says: " + messageTemplate;
		}

		@Override
		public String interpolate(String messageTemplate, Context context, java.util.Locale locale) {
			return interpolate(messageTemplate, context);
		}

	}

}
