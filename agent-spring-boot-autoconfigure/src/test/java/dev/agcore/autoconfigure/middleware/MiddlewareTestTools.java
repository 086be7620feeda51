package dev.agcore.autoconfigure.middleware;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.Tool;
import dev.agcore.ToolParam;

/**
 * Tools for middleware tests, recording each call.
 */
public class MiddlewareTestTools {

	private final List<String> calls = new CopyOnWriteArrayList<>();

	private final AtomicInteger fetchFailures = new AtomicInteger(1);

	@Tool(name = "get_weather", description = "Current weather in a city", secrets = {})
	public String getWeather(@ToolParam(description = "City name") String city) {
		this.calls.add("get_weather:" + city);
		return "Sunny in " + city;
	}

	@Tool(name = "delete_file", description = "Delete a file", secrets = {})
	public String deleteFile(@ToolParam(description = "Path of the file") String path) {
		this.calls.add("delete_file:" + path);
		return "Deleted " + path;
	}

	@Tool(name = "fetch", description = "Fetch a page; fails once with an IOException", secrets = {})
	public String fetch(@ToolParam(description = "URL") String url) throws IOException {
		this.calls.add("fetch:" + url);
		if (this.fetchFailures.getAndDecrement() > 0) {
			throw new IOException("connection reset");
		}
		return "page " + url;
	}

	@Tool(name = "broken", description = "Always fails", secrets = {})
	public String broken(@ToolParam(description = "Anything") String input) {
		this.calls.add("broken:" + input);
		throw new IllegalStateException("always broken");
	}

	public List<String> calls() {
		return this.calls;
	}

}
