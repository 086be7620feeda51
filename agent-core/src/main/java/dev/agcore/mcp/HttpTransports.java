package dev.agcore.mcp;

import java.net.http.HttpRequest;
import java.util.Map;

import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;

/**
 * Creates the SDK's HTTP client transports, those of {@code mcp-core} itself, on the
 * JDK's non-blocking {@link java.net.http.HttpClient}, so that MCP clients need no
 * WebFlux and work the same in any application.
 * <p>
 * The configured headers go on every request; the connect timeout bounds opening a
 * connection. There is no response timeout: the server-sent-event streams stay open for
 * as long as the session lives, and each request is bounded by the request timeout.
 */
final class HttpTransports {

	private HttpTransports() {
	}

	static McpClientTransport streamableHttp(McpTransportSettings.StreamableHttp settings, McpJsonMapper mapper) {
		return HttpClientStreamableHttpTransport.builder(settings.url().toString())
			.endpoint(settings.endpoint())
			.connectTimeout(settings.connectTimeout())
			.httpRequestCustomizer((request, method, uri, body, context) -> headers(request, settings.headers()))
			.jsonMapper(mapper)
			.build();
	}

	static McpClientTransport sse(McpTransportSettings.Sse settings, McpJsonMapper mapper) {
		return HttpClientSseClientTransport.builder(settings.url().toString())
			.sseEndpoint(settings.endpoint())
			.connectTimeout(settings.connectTimeout())
			.httpRequestCustomizer((request, method, uri, body, context) -> headers(request, settings.headers()))
			.jsonMapper(mapper)
			.build();
	}

	private static void headers(HttpRequest.Builder request, Map<String, String> headers) {
		headers.forEach(request::setHeader);
	}

}
