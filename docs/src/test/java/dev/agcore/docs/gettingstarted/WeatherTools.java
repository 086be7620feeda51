package dev.agcore.docs.gettingstarted;

// tag::tools[]
import dev.agcore.Tool;
import dev.agcore.ToolParam;
import org.springframework.stereotype.Component;

@Component
class WeatherTools {

	@Tool(name = "get_weather", description = "Current weather in a city")
	String weather(@ToolParam(description = "City name") String city) {
		return "Sunny, 21 °C in " + city;
	}

}
// end::tools[]
