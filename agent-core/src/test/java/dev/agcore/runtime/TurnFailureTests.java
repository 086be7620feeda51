package dev.agcore.runtime;

import java.io.IOException;
import java.time.Duration;

import dev.agcore.memory.MemoryUnavailableException;
import dev.agcore.model.ModelConnectionException;
import dev.agcore.model.ModelRequestException;
import dev.agcore.model.ModelServerException;
import dev.agcore.workflow.WorkflowInputException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link TurnFailure}.
 */
class TurnFailureTests {

	@Test
	void connectionFailureNamesTheProviderButNotTheAddress() {
		TurnFailure failure = TurnFailure.of(new ModelConnectionException("openai",
				"Connection refused: /127.0.0.1:9999", new IOException("refused")));
		assertThat(failure).isEqualTo(new TurnFailure(TurnFailure.MODEL_ERROR,
				"The connection to the model provider 'openai' failed"));
	}

	@Test
	void providerErrorKeepsTheProvidersWords() {
		TurnFailure failure = TurnFailure.of(new ModelServerException("anthropic", 529, "Overloaded"));
		assertThat(failure).isEqualTo(new TurnFailure(TurnFailure.MODEL_ERROR, "Overloaded"));
	}

	@Test
	void requestRefusedBeforeSendingIsUnsupported() {
		TurnFailure failure = TurnFailure.of(new ModelRequestException("ollama", 0, "ollama takes no PDF"));
		assertThat(failure).isEqualTo(new TurnFailure(TurnFailure.UNSUPPORTED_REQUEST, "ollama takes no PDF"));
	}

	@Test
	void storeOutageHidesTheStoresAddress() {
		TurnFailure failure = TurnFailure.of(new MemoryUnavailableException("db.internal:5432 refused",
				new IOException("refused")));
		assertThat(failure.code()).isEqualTo(TurnFailure.MEMORY_UNAVAILABLE);
		assertThat(failure.message()).doesNotContain("db.internal");
	}

	@Test
	void turnTimeoutAndPendingApprovalHaveTheirCodes() {
		assertThat(TurnFailure.of(new TurnTimeoutException("assistant", Duration.ofSeconds(5))).code())
			.isEqualTo(TurnFailure.TURN_TIMEOUT);
		assertThat(TurnFailure.of(new ResumeException("a turn waits for approval")))
			.isEqualTo(new TurnFailure(TurnFailure.CONFLICT, "a turn waits for approval"));
	}

	@Test
	void unexpectedFailureIsNotClassified() {
		assertThat(TurnFailure.of(new IllegalStateException("bug at Foo.java:12"))).isNull();
	}

	@Test
	void failureOfAnotherPackageIsReportedWithTheCodeItNames() {
		TurnFailure failure = TurnFailure.of(WorkflowInputException.conversion("report", "Topic", "expected an object"));
		assertThat(failure).isEqualTo(new TurnFailure(WorkflowInputException.CODE,
				"The input of workflow 'report' does not fit Topic: expected an object"));
		assertThat(TurnFailure.of(new dev.agcore.AgentException("unexpected"))).as("no code: for the log only").isNull();
	}

	@Test
	void inputEchoedInAConverterMessageIsBounded() {
		String detail = "x".repeat(10_000);
		assertThat(WorkflowInputException.conversion("report", "Topic", detail).getMessage()).hasSizeLessThan(400);
	}

}
