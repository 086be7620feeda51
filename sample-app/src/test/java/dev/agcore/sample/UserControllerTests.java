package dev.agcore.sample;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's controller that injects the {@code Agent} (the README's quick start) must not
 * cost the starter's routes or Actuator: all of them answer over a real socket.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class UserControllerTests {

	@LocalServerPort
	private int port;

	private WebTestClient client;

	@BeforeEach
	void connect() {
		this.client = WebTestClient.bindToServer().baseUrl("http://localhost:" + this.port).build();
	}

	@Test
	void agentsRouteAnswers() {
		this.client.get().uri("/agents").exchange().expectStatus().isOk().expectBody()
			.jsonPath("$[0].name").isEqualTo("assistant");
	}

	@Test
	void invokeRouteAnswers() {
		this.client.post()
			.uri("/agents/assistant/invoke")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue("{\"sessionId\":\"user-controller\",\"message\":\"What is the weather in Paris?\"}")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.status")
			.isEqualTo("completed");
	}

	@Test
	void actuatorHealthAnswers() {
		this.client.get().uri("/actuator/health").exchange().expectStatus().isOk().expectBody()
			.jsonPath("$.status").isEqualTo("UP");
	}

	@Test
	void userControllerAnswers() {
		this.client.post()
			.uri("/chat?session=user-chat")
			.contentType(MediaType.TEXT_PLAIN)
			.bodyValue("What is the weather in Paris?")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.value((answer) -> assertThat(answer).contains("Paris"));
	}

}
