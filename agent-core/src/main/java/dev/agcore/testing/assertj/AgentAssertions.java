package dev.agcore.testing.assertj;

import java.time.Duration;
import java.util.List;

import dev.agcore.model.ChatRequest;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentResult;
import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.publisher.Flux;

/**
 * Entry points of the agent assertions, used next to AssertJ's own:
 * <pre>{@code
 * import static dev.agcore.testing.assertj.AgentAssertions.assertThat;
 *
 * assertThat(result).isCompleted().calledTool("get_weather").withArgument("city", "Paris");
 * }</pre>
 */
public final class AgentAssertions {

	/** How long {@link #assertThat(Flux)} waits for a stream to end. */
	public static final Duration STREAM_TIMEOUT = Duration.ofSeconds(30);

	private AgentAssertions() {
	}

	/**
	 * Assert on the outcome of a turn.
	 * @param actual the result
	 * @return the assertion
	 */
	public static AgentResultAssert assertThat(AgentResult actual) {
		return new AgentResultAssert(actual);
	}

	/**
	 * Assert on a turn's event stream, collected first (for at most
	 * {@link #STREAM_TIMEOUT}).
	 * @param events the stream
	 * @return the assertion
	 */
	public static AgentEventsAssert assertThat(Flux<AgentEvent> events) {
		List<AgentEvent> collected = events.collectList().block(STREAM_TIMEOUT);
		return new AgentEventsAssert((collected != null) ? collected : List.of());
	}

	/**
	 * Assert on the events of a turn, already collected.
	 * @param events the events, in order
	 * @return the assertion
	 */
	public static AgentEventsAssert assertThatEvents(List<? extends AgentEvent> events) {
		return new AgentEventsAssert(List.copyOf(events));
	}

	/**
	 * Assert on a request a model received, such as
	 * {@link dev.agcore.testing.ScriptedChatModel#lastRequest()}.
	 * @param actual the request
	 * @return the assertion
	 */
	public static ChatRequestAssert assertThat(ChatRequest actual) {
		return new ChatRequestAssert(actual);
	}

	/**
	 * Assert on the meters recorded in a registry.
	 * @param actual the registry
	 * @return the assertion
	 */
	public static MeterRegistryAssert assertThat(MeterRegistry actual) {
		return new MeterRegistryAssert(actual);
	}

}
