package dev.agcore.docs.support;

import dev.agcore.Tool;
import dev.agcore.ToolParam;

/**
 * The tools the docs' YAML snippets name, for {@link dev.agcore.docs.YamlSnippetsStartTests}:
 * an agent's {@code tools: [get_weather]} must name a tool that exists.
 */
public class DocsTools {

	@Tool(name = "get_weather", description = "Current weather in a city", secrets = {})
	public String weather(@ToolParam(description = "City name") String city) {
		return "Sunny, 21 °C in " + city;
	}

	@Tool(name = "convert_units", description = "Convert a value between units", secrets = {})
	public String convert(@ToolParam(description = "Value") double value,
			@ToolParam(description = "From unit, such as mi") String from,
			@ToolParam(description = "To unit, such as km") String to) {
		return value + " " + from + " in " + to;
	}

}
