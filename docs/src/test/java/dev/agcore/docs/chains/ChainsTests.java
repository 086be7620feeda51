package dev.agcore.docs.chains;

import java.time.Duration;

import dev.agcore.chain.ChainRegistry;
import dev.agcore.chain.Chains;
import dev.agcore.chain.Runnable;
import dev.agcore.docs.chains.Forecasts.Weather;
import dev.agcore.docs.support.SnippetContexts;
import dev.agcore.message.Message;
import dev.agcore.model.ChatRequest;
import dev.agcore.prompt.PromptTemplate;
import dev.agcore.testing.ScriptedChatModel;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The snippets of docs/chains.md, with scripted models. */
class ChainsTests {

	@Test
	void theForecastChainReadsTheModelsJson() {
		ScriptedChatModel model = ScriptedChatModel
			.replaying(ScriptedChatModel.text("```json\n{\"city\":\"Oslo\",\"celsius\":4}\n```"));
		assertThat(Forecasts.oslo(model).block(Duration.ofSeconds(10))).isEqualTo(new Weather("Oslo", 4));
		assertThat(lastText(model.requests().get(0))).startsWith("Weather in Oslo? ").contains("celsius");
	}

	@Test
	void aBatchKeepsTheOrderOfItsInputs() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
			String prompt = lastText(request);
			return ScriptedChatModel.text(prompt.contains("Norway") ? " Oslo\n" : prompt.contains("Italy") ? "Rome" : "Lima");
		});
		assertThat(Capitals.capitals(model).block(Duration.ofSeconds(10))).containsExactly("Oslo", "Rome", "Lima");
	}

	@Test
	void chainBeansJoinTheRegistryAndCompose() {
		ScriptedChatModel model = ScriptedChatModel
			.answering((request) -> ScriptedChatModel.text("Summary of: " + lastText(request).lines().toList().get(1)));
		SnippetContexts.yaml("chains/fast-model.yml", model)
			.withUserConfiguration(TextChains.class, Digest.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ChainRegistry chains = context.getBean(ChainRegistry.class);
				assertThat(chains.names()).contains("normalize", "spell", "summarize");
				assertThat(context.getBean(Digest.class).digest("  The Tea ARRIVED  ").block(Duration.ofSeconds(10)))
					.isEqualTo("Summary of: the tea arrived");
				Runnable<String, String> spell = chains.get("spell");
				assertThat(spell.stream("tea").collectList().block(Duration.ofSeconds(10))).containsExactly("t", "e", "a");
				assertThat(spell.invoke("tea").block(Duration.ofSeconds(10))).isEqualTo("tea");
			});
	}

	@Test
	void aRegistryWithoutSpringBootRecordsItsChains() {
		ScriptedChatModel model = ScriptedChatModel.replaying(ScriptedChatModel.text("{\"city\":\"Oslo\",\"celsius\":4}"));
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		ChainRegistry chains = RegisteredChains.registry(meters,
				Chains.prompt(PromptTemplate.compile("Weather in {{city}}?"), "city"), Chains.model(model),
				Chains.parse(Weather.class));
		Runnable<String, Weather> forecast = chains.get("forecast");
		assertThat(forecast.invoke("Oslo").block(Duration.ofSeconds(10))).isEqualTo(new Weather("Oslo", 4));
		assertThat(meters.find("agent.chain.calls").tag("chain", "forecast").timer()).isNotNull();
	}

	private static String lastText(ChatRequest request) {
		Message last = request.messages().get(request.messages().size() - 1);
		return last.text();
	}

}
