package dev.agcore.mcp;

import org.junit.jupiter.api.AfterAll;

/**
 * server-everything over streamable HTTP: a node process of the test, on a free port.
 */
class HttpEverythingServerTests extends EverythingServerTests {

	private McpTestServers.HttpServer server;

	@Override
	McpServerSettings settings() {
		this.server = McpTestServers.HttpServer.start();
		return McpTestServers.everythingHttp("everything", this.server.port());
	}

	@AfterAll
	void stopServer() {
		if (this.server != null) {
			this.server.close();
		}
	}

}
