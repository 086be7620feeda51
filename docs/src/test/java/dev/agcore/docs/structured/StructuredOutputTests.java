package dev.agcore.docs.structured;

import java.time.Duration;

import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.StructuredResult;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The typed answers of docs/structured-output.md, parsed from a scripted model's JSON.
 */
class StructuredOutputTests {

	private final Agent agent = Agent.builder()
		.name("assistant")
		.model(ScriptedChatModel.answering((request) -> ScriptedChatModel.text("{\"city\":\"Paris\",\"celsius\":21}")))
		.build();

	@Test
	void answerIsParsedIntoTheRecordBlockingReactiveAndWithTheResult() {
		AgentRequest request = AgentRequest.of("s2", "Weather in Paris?");
		// tag::calls[]
		// call blocks: not on a WebFlux event-loop thread, use invoke there
		Weather weather = agent.call(AgentRequest.of("s1", "Weather in Paris?"), Weather.class);
		Mono<Weather> later = agent.invoke(AgentRequest.of("s1", "Weather in Paris?"), Weather.class);
		StructuredResult<Weather> both = agent.invokeStructured(request, Weather.class).block(); // value() + result()
		// end::calls[]
		assertThat(weather).isEqualTo(new Weather("Paris", 21));
		assertThat(later.block(Duration.ofSeconds(10))).isEqualTo(weather);
		assertThat(both.value()).isEqualTo(weather);
		assertThat(both.result().isCompleted()).isTrue();
	}

}
