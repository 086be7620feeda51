package dev.agcore.docs.chains;

import java.util.Locale;

import dev.agcore.chain.Chain;
import dev.agcore.chain.ChainRegistry;
import dev.agcore.chain.Chains;
import dev.agcore.chain.Runnable;
import dev.agcore.model.ChatModelRegistry;
import dev.agcore.prompt.PromptTemplates;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;
import org.springframework.stereotype.Service;

// tag::beans[]
@Component
class TextChains {

	private final Runnable<String, String> summarizer;

	TextChains(ChatModelRegistry models, PromptTemplates templates) {
		this.summarizer = Chains.prompt(templates.get("summarize"), "text")
			.pipe(Chains.model(models.get("fast")))
			.pipe(Chains.text());
	}

	@Chain("normalize")                          // may block: runs on boundedElastic
	public String normalize(String text) {
		return text.strip().toLowerCase(Locale.ROOT);
	}

	@Chain                                       // named "summarize", after the method
	public Mono<String> summarize(String text) {
		return this.summarizer.invoke(text);
	}

	@Chain
	public Flux<String> spell(String word) {     // stream emits the pieces, invoke joins them
		return Flux.fromArray(word.split(""));
	}

}

@Service
class Digest {

	private final ChainRegistry chains;

	Digest(ChainRegistry chains) {
		this.chains = chains;
	}

	Mono<String> digest(String text) {
		Runnable<String, String> normalize = this.chains.get("normalize");
		Runnable<String, String> summarize = this.chains.get("summarize");
		return normalize.pipe(summarize).invoke(text);
	}

}
// end::beans[]
