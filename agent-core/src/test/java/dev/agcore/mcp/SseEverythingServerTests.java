package dev.agcore.mcp;

import org.junit.jupiter.api.AfterAll;

/**
 * server-everything over the HTTP with SSE transport of protocol version 2024-11-05: a
 * node process of the test, on a free port.
 */
class SseEverythingServerTests extends EverythingServerTests {

	private McpTestServers.HttpServer server;

	@Override
	McpServerSettings settings() {
		this.server = McpTestServers.HttpServer.startSse();
		return McpTestServers.everythingSse("everything", this.server.port());
	}

	@AfterAll
	void stopServer() {
		if (this.server != null) {
			this.server.close();
		}
	}

}
