package dev.agcore.sample;

import java.time.Duration;

import dev.agcore.json.AgentJson;
import tools.jackson.databind.JsonNode;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * JSON over HTTP to a sample app that a test started itself (several instances, or one
 * after another), on the port it listens on.
 */
final class SampleHttp {

	private SampleHttp() {
	}

	static WebTestClient client(ConfigurableApplicationContext context) {
		String port = context.getEnvironment().getProperty("local.server.port");
		return WebTestClient.bindToServer()
			.baseUrl("http://127.0.0.1:" + port)
			.responseTimeout(Duration.ofSeconds(30))
			.build();
	}

	/** POST a JSON body, expect 200 and read the JSON answer. */
	static JsonNode post(ConfigurableApplicationContext context, String uri, Object body) {
		return post(client(context), uri, body);
	}

	/** GET, expect 200 and read the JSON answer. */
	static JsonNode get(ConfigurableApplicationContext context, String uri) {
		return get(client(context), uri);
	}

	/** POST a JSON body, expect 200 and read the JSON answer. */
	static JsonNode post(WebTestClient client, String uri, Object body) {
		return post(client, uri, body, 200);
	}

	/** POST a JSON body, expect a status and read the JSON answer. */
	static JsonNode post(WebTestClient client, String uri, Object body, int status) {
		return AgentJson.mapper()
			.readTree(client.post()
				.uri(uri)
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(body)
				.exchange()
				.expectStatus()
				.isEqualTo(status)
				.expectBody(String.class)
				.returnResult()
				.getResponseBody());
	}

	/** GET, expect 200 and read the JSON answer. */
	static JsonNode get(WebTestClient client, String uri) {
		return AgentJson.mapper()
			.readTree(client.get()
				.uri(uri)
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody(String.class)
				.returnResult()
				.getResponseBody());
	}

}
