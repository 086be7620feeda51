package dev.agcore.autoconfigure;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.Tool;
import dev.agcore.ToolParam;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.testing.ScriptedChatModel;

/**
 * A tool bean for tests: deterministic weather, counting its calls.
 */
public class WeatherTools {

	private final AtomicInteger calls = new AtomicInteger();

	@Tool(name = "get_weather", description = "Current weather in a city", secrets = {})
	public String getWeather(@ToolParam(description = "City name") String city) {
		this.calls.incrementAndGet();
		return "Sunny, 21 C in " + city;
	}

	@Tool(name = "get_forecast", description = "Tomorrow's weather in a city", secrets = {})
	public String getForecast(@ToolParam(description = "City name") String city) {
		this.calls.incrementAndGet();
		return "Rain tomorrow in " + city;
	}

	public int calls() {
		return this.calls.get();
	}

	/**
	 * A scripted model that calls {@code get_weather} for the city the user names (Quito,
	 * else Lima) and answers with the tool's result.
	 * @return a new model, recording its requests
	 */
	public static ScriptedChatModel callingModel() {
		return ScriptedChatModel.answering((request) -> {
			List<Message> messages = request.messages();
			Message last = messages.get(messages.size() - 1);
			if (last instanceof ToolResultMessage result) {
				return ScriptedChatModel.text("The weather: " + result.text());
			}
			String city = (last instanceof UserMessage user && user.text().contains("Quito")) ? "Quito" : "Lima";
			return ScriptedChatModel
				.toolCalls(new ToolCall("call-" + UUID.randomUUID(), "get_weather", "{\"city\": \"" + city + "\"}"));
		});
	}

}
