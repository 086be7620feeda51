package dev.agcore.docs.testing;

import dev.agcore.Tool;
import dev.agcore.ToolParam;

import org.springframework.stereotype.Component;

/**
 * The {@code get_weather} tool of docs/testing.md: a tool bean that {@code @AgentTest}
 * keeps, and the tool of the scripted and replayed turns.
 */
@Component
public class WeatherTools {

	@Tool(name = "get_weather", description = "Current weather in a city")
	public String weather(@ToolParam(description = "the city") String city,
			@ToolParam(description = "days ahead", defaultValue = "1") int days) {
		return "sunny, 24°C in " + city;
	}

}
