package dev.agcore.docs.tools;

import java.util.Set;

import dev.agcore.tool.ToolContext;
import dev.agcore.tool.typed.TypedTool;

// tag::tool[]
public class ForecastTool implements TypedTool<ForecastInput> {

	@Override
	public String name() {
		return "forecast";
	}

	@Override
	public String description() {
		return "Weather forecast for a city";
	}

	@Override
	public Set<String> secretParameters() {
		return Set.of();
	}

	@Override
	public Object call(ForecastInput input, ToolContext context) {
		return "Sunny for " + input.days() + " days in " + input.city();
	}

}
// end::tool[]
