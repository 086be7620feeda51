package dev.agcore.autoconfigure.mcp.server;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@link McpTestApplication} running on a random port for the tests of a class: register
 * it as a static {@code @RegisterExtension} field.
 */
final class McpTestServer implements BeforeAllCallback, AfterAllCallback {

	private @Nullable ConfigurableApplicationContext context;

	@Override
	public void beforeAll(ExtensionContext extensionContext) {
		this.context = new SpringApplicationBuilder(McpTestApplication.class).web(WebApplicationType.REACTIVE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties(McpTestApplication.PROPERTIES)
			.run();
	}

	@Override
	public void afterAll(ExtensionContext extensionContext) {
		if (this.context != null) {
			this.context.close();
			this.context = null;
		}
	}

	/** The base URL, on localhost: the conformance suite's DNS rebinding scenario wants it. */
	String baseUrl() {
		return "http://localhost:" + context().getEnvironment().getRequiredProperty("local.server.port");
	}

	/** The URL of the MCP endpoint. */
	String mcpUrl() {
		return baseUrl() + "/mcp";
	}

	<T> T bean(Class<T> type) {
		return context().getBean(type);
	}

	private ConfigurableApplicationContext context() {
		if (this.context == null) {
			throw new IllegalStateException("The server runs only while the tests of its class do");
		}
		return this.context;
	}

}
