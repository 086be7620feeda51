package dev.agcore.autoconfigure;

import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.Tool;
import dev.agcore.ToolParam;

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

}
