package dev.agcore.autoconfigure.agent;

import java.util.function.Consumer;

import dev.agcore.autoconfigure.WeatherTools;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolSpec;
import org.junit.jupiter.api.Test;

import org.springframework.aot.test.generate.TestGenerationContext;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.test.tools.CompileWithForkedClassLoader;
import org.springframework.core.test.tools.TestCompiler;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the agent beans survive Spring AOT processing, as used by
 * {@code process-aot} and native images.
 */
class AgentAotProcessingTests {

	private static final String[] PROPERTIES = { "agent.agents.assistant.provider=myModel",
			"agent.agents.assistant.tools=get_weather" };

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class))
		.withUserConfiguration(ModelAndToolsConfiguration.class);

	@Test
	void configuredAgentIsProcessedAheadOfTime() {
		this.contextRunner.withPropertyValues(PROPERTIES).prepare((context) -> {
			GenericApplicationContext applicationContext = context
				.getSourceApplicationContext(GenericApplicationContext.class);
			new ApplicationContextAotGenerator().processAheadOfTime(applicationContext, new TestGenerationContext());
		});
	}

	@Test
	void defaultAgentIsProcessedAheadOfTime() {
		this.contextRunner.prepare((context) -> {
			GenericApplicationContext applicationContext = context
				.getSourceApplicationContext(GenericApplicationContext.class);
			new ApplicationContextAotGenerator().processAheadOfTime(applicationContext, new TestGenerationContext());
		});
	}

	@Test
	@CompileWithForkedClassLoader
	void configuredAgentWorksFromGeneratedCode() {
		this.contextRunner.withPropertyValues(PROPERTIES).prepare((context) -> {
			GenericApplicationContext applicationContext = context
				.getSourceApplicationContext(GenericApplicationContext.class);
			TestGenerationContext generationContext = new TestGenerationContext();
			ClassName className = new ApplicationContextAotGenerator().processAheadOfTime(applicationContext,
					generationContext);
			generationContext.writeGeneratedContent();
			runAotContext(generationContext, className, (aotContext) -> {
				Agent agent = aotContext.getBean("assistant", Agent.class);
				assertThat(agent.name()).isEqualTo("assistant");
				assertThat(agent.tools()).extracting(ToolSpec::name).containsExactly("get_weather");
				assertThat(aotContext.getBean(Agent.class)).isSameAs(agent);
				assertThat(aotContext.getBean(AgentRegistry.class).get("assistant")).isSameAs(agent);
			});
		});
	}

	@SuppressWarnings("unchecked")
	private void runAotContext(TestGenerationContext generationContext, ClassName className,
			Consumer<GenericApplicationContext> assertions) {
		TestCompiler.forSystem().with(generationContext).compile((compiled) -> {
			try (GenericApplicationContext aotContext = new GenericApplicationContext()) {
				TestPropertyValues.of(PROPERTIES).applyTo(aotContext);
				compiled.getInstance(ApplicationContextInitializer.class, className.toString()).initialize(aotContext);
				aotContext.refresh();
				assertions.accept(aotContext);
			}
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class ModelAndToolsConfiguration {

		@Bean
		ChatModel myModel() {
			return ScriptedChatModel.replaying();
		}

		@Bean
		WeatherTools weatherTools() {
			return new WeatherTools();
		}

	}

}
