package dev.agcore.docs.gettingstarted;

import java.time.Duration;

import dev.agcore.docs.support.SnippetContexts;
import dev.agcore.message.ToolCall;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The five-minute quick start of docs/getting-started.md and the README: the application
 * class, the yml, the tool and the controller, with a scripted model in place of OpenAI.
 */
class GettingStartedTests {

	private final ScriptedChatModel model = ScriptedChatModel.answering(GettingStartedTests::answer);

	@Test
	void theAssistantCallsTheWeatherToolThroughTheController() {
		SnippetContexts.yaml("getting-started/application.yml", this.model)
			.withUserConfiguration(DemoApplication.class)
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(WeatherTools.class);
				assertThat(context.getBean(AgentRegistry.class).find("assistant")).isPresent();
				String answer = context.getBean(ChatController.class)
					.chat("me", "What is the weather in Paris?")
					.block(Duration.ofSeconds(10));
				assertThat(answer).isEqualTo("It is sunny and 21 °C in Paris.");
				ChatRequest second = this.model.requests().get(1);
				assertThat(second.messages().toString()).contains("Sunny, 21 °C in Paris");
				assertThat(this.model.requests().get(0).tools().toString()).contains("get_weather");
			});
	}

	private static ChatResponse answer(ChatRequest request) {
		boolean toolAnswered = request.messages().toString().contains("Sunny, 21");
		return toolAnswered ? ScriptedChatModel.text("It is sunny and 21 °C in Paris.")
				: ScriptedChatModel.toolCalls(new ToolCall("call-1", "get_weather", "{\"city\":\"Paris\"}"));
	}

}
