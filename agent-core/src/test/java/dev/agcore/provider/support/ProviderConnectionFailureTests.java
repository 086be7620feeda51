package dev.agcore.provider.support;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ModelConnectionException;
import dev.agcore.provider.openai.OpenAiChatModel;
import dev.agcore.provider.openai.OpenAiSettings;
import dev.agcore.resilience.RetrySettings;
import dev.agcore.resilience.RetryingChatModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that a provider that cannot be reached is named by address in the server log
 * only, never in the exception that reaches callers and HTTP responses.
 */
class ProviderConnectionFailureTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(15);

	private static final ChatRequest HELLO = ChatRequest.of(List.of(new UserMessage("Hello")));

	private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

	private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

	private int port;

	private OpenAiChatModel model;

	@BeforeEach
	void closedPortAndCapturedLog() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			this.port = socket.getLocalPort();
		}
		this.model = OpenAiChatModel.builder()
			.settings(OpenAiSettings.of("http://127.0.0.1:" + this.port + "/v1", "sk-test", "gpt-4o-mini"))
			.build();
		this.logs.start();
		this.root.addAppender(this.logs);
	}

	@AfterEach
	void stopCapturing() {
		this.root.detachAppender(this.logs);
	}

	@Test
	void refusedCallLogsTheAddressOnceAtWarnAndKeepsItOutOfTheException() {
		StepVerifier.create(this.model.call(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelConnectionException.class)
				.hasMessage("Could not connect to provider 'openai'"))
			.verify(TIMEOUT);
		assertThat(warningsNamingTheAddress()).singleElement()
			.satisfies((event) -> assertThat(event.getFormattedMessage()).contains("openai"));
	}

	@Test
	void refusedStreamLogsTheAddressOnceAtWarnAndKeepsItOutOfTheException() {
		StepVerifier.create(this.model.stream(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelConnectionException.class)
				.hasMessage("Could not connect to provider 'openai'"))
			.verify(TIMEOUT);
		assertThat(warningsNamingTheAddress()).hasSize(1);
	}

	@Test
	void eachRetriedAttemptLogsItsFailureOnce() {
		RetrySettings fast = RetrySettings.DEFAULTS.withMaxAttempts(3)
			.withInitialBackoff(Duration.ofMillis(10))
			.withMaxBackoff(Duration.ofMillis(20));
		StepVerifier.create(new RetryingChatModel(this.model, fast).call(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex.getMessage()).doesNotContain(String.valueOf(this.port))
				.doesNotContain("127.0.0.1"))
			.verify(TIMEOUT);
		assertThat(warningsNamingTheAddress()).hasSize(3);
	}

	private List<ILoggingEvent> warningsNamingTheAddress() {
		return this.logs.list.stream()
			.filter((event) -> event.getLevel() == Level.WARN)
			.filter((event) -> event.getFormattedMessage().contains("127.0.0.1:" + this.port))
			.toList();
	}

}
