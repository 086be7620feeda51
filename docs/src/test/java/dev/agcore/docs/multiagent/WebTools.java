package dev.agcore.docs.multiagent;

import dev.agcore.Tool;
import dev.agcore.ToolParam;

/** The researcher's tool in docs/multi-agent.md. */
public class WebTools {

	@Tool(name = "web_search", description = "Search the web", secrets = {})
	public String search(@ToolParam(description = "Query") String query) {
		return "Results for " + query;
	}

}
