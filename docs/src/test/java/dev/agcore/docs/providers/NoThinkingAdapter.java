package dev.agcore.docs.providers;

import dev.agcore.model.ChatRequest;
import dev.agcore.model.ModelAdapter;

// tag::adapter[]
public class NoThinkingAdapter implements ModelAdapter {

	@Override
	public boolean supports(String provider, String modelName) {
		return modelName.startsWith("qwen3");
	}

	@Override
	public ChatRequest adapt(ChatRequest request) {
		return request.withSystemPrompt("/no_think");
	}

}
// end::adapter[]
