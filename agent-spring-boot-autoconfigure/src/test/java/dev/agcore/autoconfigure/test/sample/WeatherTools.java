package dev.agcore.autoconfigure.test.sample;

import dev.agcore.Tool;
import dev.agcore.ToolParam;

import org.springframework.stereotype.Component;

/**
 * A tool bean, which {@code @AgentTest} keeps in its context.
 */
@Component
public class WeatherTools {

	@Tool(name = "get_weather", description = "Current weather in a city")
	public String weather(@ToolParam(description = "the city") String city) {
		return "sunny, 24°C in " + city;
	}

}
