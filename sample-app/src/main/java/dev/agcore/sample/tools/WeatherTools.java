package dev.agcore.sample.tools;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import dev.agcore.Tool;
import dev.agcore.ToolParam;

import org.springframework.stereotype.Component;

/**
 * Weather lookup. Reads a fixed table so that the sample answers the same way every time;
 * a real application would call a weather service here.
 */
@Component
public class WeatherTools {

	private static final Map<String, Weather> WEATHER = new LinkedHashMap<>();

	static {
		add(new Weather("Paris", 18, "partly cloudy", 10));
		add(new Weather("London", 14, "light rain", 20));
		add(new Weather("Berlin", 16, "overcast", 15));
		add(new Weather("New York", 22, "sunny", 12));
		add(new Weather("Tokyo", 25, "humid and clear", 8));
		add(new Weather("Sydney", 20, "windy", 30));
	}

	@Tool(name = "get_weather", description = "Current weather in a city: temperature in degrees Celsius, "
			+ "conditions and wind speed in km/h", permission = "read-only", secrets = {})
	public String getWeather(@ToolParam(description = "City name, e.g. Paris") String city) {
		Weather weather = WEATHER.get(key(city));
		if (weather == null) {
			return "No weather data for '" + city + "'. Cities with data: "
					+ String.join(", ", WEATHER.values().stream().map(Weather::city).toList());
		}
		return weather.city() + ": " + weather.temperature() + " °C, " + weather.conditions() + ", wind "
				+ weather.windKmh() + " km/h";
	}

	private static void add(Weather weather) {
		WEATHER.put(key(weather.city()), weather);
	}

	private static String key(String city) {
		return city.strip().toLowerCase(Locale.ROOT);
	}

	private record Weather(String city, int temperature, String conditions, int windKmh) {
	}

}
