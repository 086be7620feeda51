package dev.agcore.docs.chains;

import java.util.List;

import dev.agcore.chain.Chains;
import dev.agcore.chain.Runnable;
import dev.agcore.model.ChatModel;
import dev.agcore.prompt.PromptTemplate;
import reactor.core.publisher.Mono;

/** The batch of docs/chains.md. */
class Capitals {

	static Mono<List<String>> capitals(ChatModel chatModel) {
		// tag::batch[]
		Runnable<String, String> capital = Chains.prompt(PromptTemplate.compile("Capital of {{country}}? One word."), "country")
			.pipe(Chains.model(chatModel))
			.pipe(Chains.text());

		Mono<List<String>> capitals = capital.batch(List.of("Norway", "Italy", "Peru"), 2);
		// end::batch[]
		return capitals;
	}

}
