package dev.agcore.autoconfigure.mcp.server;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@link McpTestApplication} running on a random port, until closed.
 */
final class McpTestServer implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private McpTestServer(ConfigurableApplicationContext context) {
		this.context = context;
	}

	static McpTestServer start() {
		return new McpTestServer(new SpringApplicationBuilder(McpTestApplication.class)
			.web(WebApplicationType.REACTIVE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties(McpTestApplication.PROPERTIES)
			.run());
	}

	/** The base URL, on localhost: the conformance suite's DNS rebinding scenario wants it. */
	String baseUrl() {
		return "http://localhost:" + this.context.getEnvironment().getRequiredProperty("local.server.port");
	}

	/** The URL of the MCP endpoint. */
	String mcpUrl() {
		return baseUrl() + "/mcp";
	}

	<T> T bean(Class<T> type) {
		return this.context.getBean(type);
	}

	@Override
	public void close() {
		this.context.close();
	}

}
