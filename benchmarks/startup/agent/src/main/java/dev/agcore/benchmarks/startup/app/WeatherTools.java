package dev.agcore.benchmarks.startup.app;

import dev.agcore.Tool;
import dev.agcore.ToolParam;

import org.springframework.stereotype.Component;

/**
 * The getting-started guide's one tool.
 */
@Component
class WeatherTools {

	@Tool(name = "get_weather", description = "Current weather in a city")
	String weather(@ToolParam(description = "City name") String city) {
		return "Sunny, 21 °C in " + city;
	}

}
