package dev.agcore.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;

/**
 * The built-in {@link ModelAdapter}s, and applying a list of adapters.
 */
public final class ModelAdapters {

	/**
	 * The guidance added to the system prompt of models that tend to answer without
	 * calling tools.
	 */
	public static final String TOOL_GUIDANCE = "When one of your tools can help answer, call it through the tool "
			+ "(function) calling interface instead of describing the call or answering from memory.";

	/** OpenAI o-series and GPT-5 families, and DeepSeek's reasoner: no sampling options. */
	private static final Pattern REASONING_MODELS = Pattern.compile("(o1|o3|o4)(-.*)?|gpt-5.*|deepseek-reasoner.*");

	/** Open-weight families that, small or quantized, often skip tools when served locally. */
	private static final Pattern TOOL_SHY_MODELS = Pattern.compile("(llama|phi|gemma|mistral|qwen).*");

	private static final ModelAdapter REASONING_SAMPLING = new ReasoningSampling();

	private static final ModelAdapter TOOL_USE_GUIDANCE = new ToolUseGuidance();

	private static final ModelAdapter MESSAGE_SHAPE = new MessageShape();

	private ModelAdapters() {
	}

	/**
	 * Return the built-in adapters, in the order they apply: {@link #reasoningSampling()},
	 * {@link #toolUseGuidance()}, {@link #messageShape()}.
	 * @return the adapters
	 */
	public static List<ModelAdapter> builtIns() {
		return List.of(REASONING_SAMPLING, TOOL_USE_GUIDANCE, MESSAGE_SHAPE);
	}

	/**
	 * Reasoning models (OpenAI {@code o1}, {@code o3}, {@code o4} and {@code gpt-5}
	 * families, {@code deepseek-reasoner}) reject sampling options: this drops
	 * temperature, top-p and the penalties. A model name's {@code vendor/} prefix (as
	 * OpenRouter writes them) is ignored.
	 * @return the adapter
	 */
	public static ModelAdapter reasoningSampling() {
		return REASONING_SAMPLING;
	}

	/**
	 * Models that tend to skip tools (any model served by Ollama; the Llama, Phi, Gemma,
	 * Mistral and Qwen families elsewhere) get {@link #TOOL_GUIDANCE} appended to the
	 * system prompt when the request offers tools and does not forbid them.
	 * @return the adapter
	 */
	public static ModelAdapter toolUseGuidance() {
		return TOOL_USE_GUIDANCE;
	}

	/**
	 * Message shapes some servers reject, fixed for every model: consecutive system
	 * messages of the same kind become one (several chat templates take a single system
	 * message), and assistant messages with nothing in them (no text, tool calls,
	 * reasoning or refusal) are left out.
	 * @return the adapter
	 */
	public static ModelAdapter messageShape() {
		return MESSAGE_SHAPE;
	}

	/**
	 * Apply every adapter that supports the model, in order.
	 * @param adapters the adapters
	 * @param provider the provider
	 * @param modelName the model requested
	 * @param request the request
	 * @return the adapted request
	 */
	public static ChatRequest apply(List<ModelAdapter> adapters, String provider, String modelName,
			ChatRequest request) {
		ChatRequest adapted = request;
		for (ModelAdapter adapter : adapters) {
			if (adapter.supports(provider, modelName)) {
				adapted = adapter.adapt(adapted);
			}
		}
		return adapted;
	}

	/** The model's own name: without a vendor prefix, lower case. */
	static String family(String modelName) {
		String name = modelName.substring(modelName.lastIndexOf('/') + 1);
		return name.toLowerCase(Locale.ROOT);
	}

	private static final class ReasoningSampling implements ModelAdapter {

		@Override
		public boolean supports(String provider, String modelName) {
			return REASONING_MODELS.matcher(family(modelName)).matches();
		}

		@Override
		public ChatRequest adapt(ChatRequest request) {
			ChatOptions options = request.options();
			if (options.temperature() == null && options.topP() == null && options.frequencyPenalty() == null
					&& options.presencePenalty() == null) {
				return request;
			}
			return new ChatRequest(request.messages(), request.tools(), options.mutate()
				.temperature(null)
				.topP(null)
				.frequencyPenalty(null)
				.presencePenalty(null)
				.build());
		}

		@Override
		public String toString() {
			return "ModelAdapters.reasoningSampling()";
		}

	}

	private static final class ToolUseGuidance implements ModelAdapter {

		@Override
		public boolean supports(String provider, String modelName) {
			return "ollama".equals(provider) || TOOL_SHY_MODELS.matcher(family(modelName)).matches();
		}

		@Override
		public ChatRequest adapt(ChatRequest request) {
			ToolChoice choice = request.options().toolChoice();
			if (request.tools().isEmpty() || (choice != null && choice.mode() == ToolChoice.Mode.NONE)) {
				return request;
			}
			List<Message> messages = new ArrayList<>(request.messages().size() + 1);
			if (!request.messages().isEmpty() && request.messages().get(0) instanceof SystemMessage system) {
				if (system.text().contains(TOOL_GUIDANCE)) {
					return request;
				}
				messages.add(new SystemMessage(system.text() + "\n\n" + TOOL_GUIDANCE, system.developer()));
				messages.addAll(request.messages().subList(1, request.messages().size()));
			}
			else {
				messages.add(new SystemMessage(TOOL_GUIDANCE));
				messages.addAll(request.messages());
			}
			return new ChatRequest(messages, request.tools(), request.options());
		}

		@Override
		public String toString() {
			return "ModelAdapters.toolUseGuidance()";
		}

	}

	private static final class MessageShape implements ModelAdapter {

		@Override
		public boolean supports(String provider, String modelName) {
			return true;
		}

		@Override
		public ChatRequest adapt(ChatRequest request) {
			if (!needsShaping(request.messages())) {
				return request;
			}
			List<Message> messages = new ArrayList<>(request.messages().size());
			for (Message message : request.messages()) {
				if (isEmpty(message)) {
					continue;
				}
				int last = messages.size() - 1;
				if (message instanceof SystemMessage system && last >= 0
						&& messages.get(last) instanceof SystemMessage previous
						&& previous.developer() == system.developer()) {
					messages.set(last, new SystemMessage(previous.text() + "\n\n" + system.text(), system.developer()));
				}
				else {
					messages.add(message);
				}
			}
			return new ChatRequest(messages, request.tools(), request.options());
		}

		private static boolean needsShaping(List<Message> messages) {
			Message previous = null;
			for (Message message : messages) {
				if (isEmpty(message) || (message instanceof SystemMessage system
						&& previous instanceof SystemMessage before && before.developer() == system.developer())) {
					return true;
				}
				previous = message;
			}
			return false;
		}

		private static boolean isEmpty(Message message) {
			return message instanceof AssistantMessage assistant && assistant.text().isBlank()
					&& !assistant.hasToolCalls() && !assistant.hasReasoning() && assistant.refusal() == null;
		}

		@Override
		public String toString() {
			return "ModelAdapters.messageShape()";
		}

	}

}
