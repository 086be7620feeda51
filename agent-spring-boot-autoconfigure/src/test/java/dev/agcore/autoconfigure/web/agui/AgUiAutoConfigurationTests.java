package dev.agcore.autoconfigure.web.agui;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.model.ChatModel;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the AG-UI route is there: only when switched on, in a reactive web application,
 * and unless the application defines its own.
 */
class AgUiAutoConfigurationTests {

	private static final AutoConfigurations CONFIGURATIONS = AutoConfigurations.of(ChatModelAutoConfiguration.class,
			ToolAutoConfiguration.class, ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
			AgentAutoConfiguration.class, AgUiAutoConfiguration.class);

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(CONFIGURATIONS)
		.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.answering((request) -> ScriptedChatModel.text("ok")))
		.withPropertyValues("agent.agents.assistant.model=scripted");

	@Test
	void offByDefault() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean("agentAgUiRouterFunction"));
	}

	@Test
	void switchedOnInAReactiveApplication() {
		this.contextRunner.withPropertyValues("agent.web.ag-ui.enabled=true")
			.run((context) -> assertThat(context).hasBean("agentAgUiRouterFunction"));
	}

	@Test
	void notInAnApplicationThatIsNotReactive() {
		new ApplicationContextRunner().withConfiguration(CONFIGURATIONS)
			.withPropertyValues("agent.web.ag-ui.enabled=true")
			.run((context) -> assertThat(context).doesNotHaveBean("agentAgUiRouterFunction"));
	}

	@Test
	void anApplicationsOwnRouteReplacesIt() {
		RouterFunction<ServerResponse> own = RouterFunctions.route()
			.POST("/own", (request) -> ServerResponse.ok().build())
			.build();
		this.contextRunner.withPropertyValues("agent.web.ag-ui.enabled=true")
			.withBean("agentAgUiRouterFunction", RouterFunction.class, () -> own)
			.run((context) -> assertThat(context.getBean("agentAgUiRouterFunction")).isSameAs(own));
	}

}
