package dev.agcore.docs.testing;

import java.util.Map;

import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.testing.replay.CassetteChatModel;
import dev.agcore.testing.replay.ReplayMode;
import dev.agcore.tool.method.MethodTools;
import org.junit.jupiter.api.Test;

import static dev.agcore.testing.assertj.AgentAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Record and replay of docs/testing.md: the turn replays offline from the committed
 * cassette {@code docs/src/test/resources/cassettes/weather-turn.json}.
 */
class WeatherAgentTests {

	@Test
	void weatherTurnReplaysFromTheCassette() {
		// tag::replay[]
		CassetteChatModel model = CassetteChatModel.builder("weather-turn")
			.build(this::realModel);
		Agent agent = Agent.builder()
			.name("weather")
			.systemPrompt("You report the weather.")
			.model(model)
			.tools(MethodTools.from(new WeatherTools()))
			.build();

		AgentResult result = agent.call("s1", "Weather in Paris?");

		assertThat(result).endedWith("Sunny in Paris, 24°C").calledTool("get_weather").withArgument("city", "Paris");
		model.assertAllPlayed();
		// end::replay[]
		if (ReplayMode.configured() != ReplayMode.RECORD) {
			assertThat(model.mode()).as("the committed cassette is replayed, without creating the real model")
				.isEqualTo(ReplayMode.REPLAY);
		}
	}

	/**
	 * The model the cassette was recorded from (with {@code -Dagcore.replay.mode=record}).
	 * An application returns its real provider here, such as an {@code OpenAiChatModel}
	 * with a key; the docs build has no key, so a scripted model stood in for it.
	 */
	private ChatModel realModel() {
		return ScriptedChatModel.builder()
			.thenCallTool("get_weather", Map.of("city", "Paris"))
			.thenReply("Sunny in Paris, 24°C")
			.build();
	}

}
