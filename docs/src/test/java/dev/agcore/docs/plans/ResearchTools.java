package dev.agcore.docs.plans;

import dev.agcore.Tool;
import dev.agcore.ToolParam;

/** The tools the researcher of docs/plans.md names. */
public class ResearchTools {

	@Tool(name = "search_web", description = "Search the web", secrets = {})
	public String search(@ToolParam(description = "Query") String query) {
		return "Three results for " + query;
	}

	@Tool(name = "fetch_page", description = "Fetch a web page", secrets = {})
	public String fetch(@ToolParam(description = "URL") String url) {
		return "The page at " + url;
	}

}
