package dev.agcore.docs.tools;

import dev.agcore.Tool;
import dev.agcore.ToolParam;
import dev.agcore.tool.ToolContext;

// tag::declaring[]
public class WeatherService {

	@Tool(description = "Weather forecast for a city", permission = "read-only", secrets = {})
	public String forecast(@ToolParam(description = "City name, e.g. Paris") String city,
			@ToolParam(description = "Number of days, 1-7") int days,
			@ToolParam(required = false, description = "Temperature unit; defaults to CELSIUS") Unit unit,
			ToolContext context) {
		Unit shown = (unit != null) ? unit : Unit.CELSIUS;
		return "Sunny for " + days + " days in " + city + ", 21 degrees " + shown;
	}

}
// end::declaring[]
