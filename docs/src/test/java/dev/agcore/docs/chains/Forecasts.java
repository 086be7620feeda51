package dev.agcore.docs.chains;

// tag::forecast[]
import java.util.Map;

import dev.agcore.chain.Chains;
import dev.agcore.chain.Runnable;
import dev.agcore.model.ChatModel;
import dev.agcore.prompt.PromptTemplate;
import dev.agcore.runtime.StructuredAnswers;
import reactor.core.publisher.Mono;

class Forecasts {

	record Weather(String city, int celsius) {
	}

	static Mono<Weather> oslo(ChatModel chatModel) {
		Runnable<Map<String, ?>, Weather> forecast = Chains.prompt(PromptTemplate.compile("Weather in {{city}}? {{format}}"))
			.pipe(Chains.model(chatModel))
			.pipe(Chains.parse(Weather.class));

		return forecast.invoke(Map.of("city", "Oslo", "format", StructuredAnswers.instructions(Weather.class)));
	}

}
// end::forecast[]
