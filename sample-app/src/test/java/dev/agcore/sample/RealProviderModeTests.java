package dev.agcore.sample;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample app with {@code agent.providers.openai.base-url} pointing at a server (here a
 * mock of an OpenAI-compatible one): no demo mode, the real provider answers.
 */
// dynamic properties arrive after environment post-processing, so demo mode is switched off
// explicitly; DemoModeEnvironmentPostProcessorTests covers the detection of a base-url
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = "sample.demo.enabled=false")
class RealProviderModeTests {

	private static final MockWebServer server = new MockWebServer();

	@Autowired
	private Agent assistant;

	@Autowired
	private ApplicationContext context;

	@DynamicPropertySource
	static void provider(DynamicPropertyRegistry registry) throws IOException {
		server.start();
		registry.add("agent.providers.openai.base-url", () -> server.url("/v1").toString());
		registry.add("agent.providers.openai.model", () -> "llama3.2");
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@Test
	void assistantTalksToConfiguredServer() throws InterruptedException {
		assertThat(this.context.containsBean("demo")).isFalse();
		server.enqueue(new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "application/json")
			.body("""
					{"id": "1", "object": "chat.completion", "created": 1, "model": "llama3.2",
					 "choices": [{"index": 0, "finish_reason": "stop",
					   "message": {"role": "assistant", "content": "Hello from the server."}}],
					 "usage": {"prompt_tokens": 30, "completion_tokens": 5, "total_tokens": 35}}
					""")
			.build());
		AgentResult result = this.assistant.call("s1", "Hello");
		assertThat(result.output()).isEqualTo("Hello from the server.");
		assertThat(this.assistant.model().providerName()).isEqualTo("openai");
		RecordedRequest request = server.takeRequest(5, TimeUnit.SECONDS);
		assertThat(request.getBody().utf8()).contains("\"model\":\"llama3.2\"").contains("coffee equipment shop");
		// no key configured: none is sent, as local servers expect
		assertThat(request.getHeaders().get("Authorization")).isNull();
	}

}
