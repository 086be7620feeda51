package dev.agcore.provider.gemini.wire;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Media;
import dev.agcore.message.Message;
import dev.agcore.message.Reasoning;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatChunk.ReasoningDelta;
import dev.agcore.model.ChatChunk.ToolCallDelta;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ChatResponseAccumulator;
import dev.agcore.model.FinishReason;
import dev.agcore.model.ModelRequestException;
import dev.agcore.model.ModelResponseException;
import dev.agcore.model.ResponseFormat;
import dev.agcore.model.ToolChoice;
import dev.agcore.model.Usage;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Maps between the library's types and Gemini's JSON. Thread-safe; the per-stream state
 * lives in a {@link StreamState}.
 * <p>
 * Gemini's function calls had no ids until recent models: a call without one gets
 * {@code call_<n>}, its position in the answer, and such generated ids are never sent
 * back; results are matched to calls by tool name. Ids the model sent are echoed in
 * {@code functionCall.id} and {@code functionResponse.id}.
 * <p>
 * Thinking: {@code thought: true} parts become {@link Reasoning} blocks. A
 * {@code thoughtSignature} on a thought part stays with that block and is sent back on
 * it; one on a text or function-call part becomes a block of its own, with no text, and
 * is sent back on the first function call of the message, or on its text when it has no
 * calls, which is where Gemini puts it. Thought text without a signature is not sent
 * back.
 */
public final class GeminiWireMapper {

	private static final Pattern GENERATED_ID = Pattern.compile("call_\\d+");

	private final String provider;

	private final JsonMapper jsonMapper;

	/**
	 * Create a mapper.
	 * @param provider the provider name used in exceptions
	 * @param jsonMapper the mapper for arguments and results
	 */
	public GeminiWireMapper(String provider, JsonMapper jsonMapper) {
		this.provider = Objects.requireNonNull(provider, "'provider' must not be null");
		this.jsonMapper = Objects.requireNonNull(jsonMapper, "'jsonMapper' must not be null");
	}

	// ---- requests

	/**
	 * Build a {@code generateContent} request body.
	 * @param messages the conversation
	 * @param tools the tools
	 * @param options the options, defaults already applied
	 * @param extraBody fields merged into the body last, objects merged deeply
	 * @return the body
	 * @throws ModelRequestException if a message or schema cannot be expressed
	 */
	public ObjectNode toRequest(List<Message> messages, List<ToolSpec> tools, ChatOptions options,
			Map<String, Object> extraBody) {
		ObjectNode body = this.jsonMapper.createObjectNode();
		ArrayNode system = this.jsonMapper.createArrayNode();
		ArrayNode contents = body.putArray("contents");
		List<ToolCall> lastCalls = List.of();
		List<ToolResultMessage> pendingResults = new ArrayList<>();
		for (Message message : messages) {
			if (!(message instanceof ToolResultMessage) && !pendingResults.isEmpty()) {
				addResults(contents, pendingResults, lastCalls);
			}
			if (message instanceof SystemMessage instructions) {
				system.addObject().put("text", instructions.text());
			}
			else if (message instanceof UserMessage user) {
				contents.addObject().put("role", "user").set("parts", userParts(user));
			}
			else if (message instanceof AssistantMessage assistant) {
				contents.addObject().put("role", "model").set("parts", modelParts(assistant));
				lastCalls = assistant.toolCalls();
			}
			else if (message instanceof ToolResultMessage result) {
				pendingResults.add(result);
			}
		}
		if (!pendingResults.isEmpty()) {
			addResults(contents, pendingResults, lastCalls);
		}
		if (!system.isEmpty()) {
			body.putObject("systemInstruction").set("parts", system);
		}
		if (!tools.isEmpty()) {
			ArrayNode declarations = body.putArray("tools").addObject().putArray("functionDeclarations");
			for (ToolSpec tool : tools) {
				ObjectNode declaration = declarations.addObject().put("name", tool.name());
				if (!tool.description().isBlank()) {
					declaration.put("description", tool.description());
				}
				ObjectNode parameters = schema(tool.inputSchema(), "tool '" + tool.name() + "'");
				// Gemini rejects an object schema without properties: a tool without arguments has none
				if (parameters.path("properties").isObject()) {
					declaration.set("parameters", parameters);
				}
			}
			ToolChoice choice = options.toolChoice();
			if (choice != null) {
				ObjectNode config = body.putObject("toolConfig").putObject("functionCallingConfig");
				switch (choice.mode()) {
					case AUTO -> config.put("mode", "AUTO");
					case NONE -> config.put("mode", "NONE");
					case REQUIRED -> config.put("mode", "ANY");
					case TOOL -> {
						config.put("mode", "ANY");
						config.putArray("allowedFunctionNames").add(choice.toolName());
					}
				}
			}
		}
		ObjectNode generation = generationConfig(options);
		if (!generation.isEmpty()) {
			body.set("generationConfig", generation);
		}
		if (!extraBody.isEmpty()) {
			merge(body, this.jsonMapper.valueToTree(extraBody));
		}
		return body;
	}

	private ArrayNode userParts(UserMessage user) {
		ArrayNode parts = this.jsonMapper.createArrayNode();
		if (!user.text().isEmpty() || !user.hasMedia()) {
			parts.addObject().put("text", user.text());
		}
		for (Media media : user.media()) {
			if (media.url() != null) {
				parts.addObject()
					.putObject("fileData")
					.put("mimeType", media.mediaType())
					.put("fileUri", media.url().toString());
			}
			else {
				parts.addObject().putObject("inlineData").put("mimeType", media.mediaType()).put("data", media.base64());
			}
		}
		return parts;
	}

	private ArrayNode modelParts(AssistantMessage assistant) {
		ArrayNode parts = this.jsonMapper.createArrayNode();
		List<String> loose = new ArrayList<>(1);
		for (Reasoning block : assistant.reasoning()) {
			if (block.signature() == null) {
				continue;
			}
			if (!block.text().isEmpty()) {
				parts.addObject().put("text", block.text()).put("thought", true).put("thoughtSignature",
						block.signature());
			}
			else {
				loose.add(block.signature());
			}
		}
		int signatures = 0;
		ObjectNode textPart = null;
		if (!assistant.text().isEmpty()) {
			textPart = parts.addObject().put("text", assistant.text());
			if (!assistant.hasToolCalls() && !loose.isEmpty()) {
				textPart.put("thoughtSignature", loose.get(signatures++));
			}
		}
		for (ToolCall call : assistant.toolCalls()) {
			ObjectNode part = parts.addObject();
			ObjectNode functionCall = part.putObject("functionCall");
			if (!GENERATED_ID.matcher(call.id()).matches()) {
				functionCall.put("id", call.id());
			}
			functionCall.put("name", call.name()).set("args", arguments(call));
			if (signatures < loose.size()) {
				part.put("thoughtSignature", loose.get(signatures++));
			}
		}
		if (parts.isEmpty()) {
			// Gemini rejects a turn without parts
			parts.addObject().put("text", "");
		}
		return parts;
	}

	private JsonNode arguments(ToolCall call) {
		try {
			JsonNode args = this.jsonMapper.readTree(call.arguments());
			if (args.isObject()) {
				return args;
			}
		}
		catch (JacksonException ex) {
			// reported below
		}
		throw new ModelRequestException(this.provider, 0,
				"The arguments of tool call '" + call.name() + "' are not a JSON object; Gemini takes only objects");
	}

	// the results of one turn's calls go together, in one user turn, in the order of the
	// calls: Gemini matches them by name and position when calls have no ids
	private void addResults(ArrayNode contents, List<ToolResultMessage> results, List<ToolCall> calls) {
		List<ToolResultMessage> ordered = new ArrayList<>(results);
		ordered.sort(Comparator.comparingInt((result) -> position(result, calls)));
		ArrayNode parts = contents.addObject().put("role", "user").putArray("parts");
		for (ToolResultMessage result : ordered) {
			addResult(parts, result, calls);
		}
		results.clear();
	}

	private static int position(ToolResultMessage result, List<ToolCall> calls) {
		for (int i = 0; i < calls.size(); i++) {
			if (calls.get(i).id().equals(result.toolCallId())) {
				return i;
			}
		}
		return calls.size();
	}

	private void addResult(ArrayNode parts, ToolResultMessage result, List<ToolCall> calls) {
		ObjectNode functionResponse = parts.addObject().putObject("functionResponse");
		if (!GENERATED_ID.matcher(result.toolCallId()).matches()) {
			functionResponse.put("id", result.toolCallId());
		}
		String name = result.toolName();
		if (name.isEmpty()) {
			for (ToolCall call : calls) {
				if (call.id().equals(result.toolCallId())) {
					name = call.name();
				}
			}
		}
		functionResponse.put("name", name);
		ObjectNode response = this.jsonMapper.createObjectNode();
		if (result.error()) {
			response.put("error", result.text());
		}
		else {
			JsonNode parsed = parseObject(result.text());
			if (parsed != null) {
				response = (ObjectNode) parsed;
			}
			else {
				response.put("result", result.text());
			}
		}
		functionResponse.set("response", response);
	}

	private @Nullable JsonNode parseObject(String text) {
		String trimmed = text.strip();
		if (!trimmed.startsWith("{")) {
			return null;
		}
		try {
			JsonNode node = this.jsonMapper.readTree(trimmed);
			return node.isObject() ? node : null;
		}
		catch (JacksonException ex) {
			return null;
		}
	}

	private ObjectNode generationConfig(ChatOptions options) {
		ObjectNode config = this.jsonMapper.createObjectNode();
		if (options.temperature() != null) {
			config.put("temperature", options.temperature());
		}
		if (options.topP() != null) {
			config.put("topP", options.topP());
		}
		if (options.maxTokens() != null) {
			config.put("maxOutputTokens", options.maxTokens());
		}
		if (!options.stop().isEmpty()) {
			ArrayNode stop = config.putArray("stopSequences");
			options.stop().forEach(stop::add);
		}
		if (options.seed() != null) {
			config.put("seed", options.seed());
		}
		if (options.presencePenalty() != null) {
			config.put("presencePenalty", options.presencePenalty());
		}
		if (options.frequencyPenalty() != null) {
			config.put("frequencyPenalty", options.frequencyPenalty());
		}
		Integer budget = options.thinkingBudget();
		boolean reasoning = options.reasoningEffort() != null && !options.reasoningEffort().isBlank();
		if (budget != null || reasoning) {
			ObjectNode thinking = config.putObject("thinkingConfig");
			if (budget != null) {
				thinking.put("thinkingBudget", budget);
			}
			if ((budget != null && budget > 0) || (budget == null && reasoning)) {
				thinking.put("includeThoughts", true);
			}
		}
		ResponseFormat format = options.responseFormat();
		if (format != null && format.type() != ResponseFormat.Type.TEXT) {
			config.put("responseMimeType", "application/json");
			if (format.type() == ResponseFormat.Type.JSON_SCHEMA && format.schema() != null) {
				config.set("responseSchema", schema(format.schema(), "response format '" + format.name() + "'"));
			}
		}
		return config;
	}

	private ObjectNode schema(ObjectNode schema, String owner) {
		try {
			return GeminiSchemas.convert(schema);
		}
		catch (IllegalArgumentException ex) {
			throw new ModelRequestException(this.provider, 0,
					"The schema of " + owner + " cannot be sent to Gemini: " + ex.getMessage(), ex);
		}
	}

	private static void merge(ObjectNode target, JsonNode extra) {
		for (Map.Entry<String, JsonNode> entry : extra.properties()) {
			JsonNode existing = target.get(entry.getKey());
			if (existing instanceof ObjectNode object && entry.getValue().isObject()) {
				merge(object, entry.getValue());
			}
			else {
				target.set(entry.getKey(), entry.getValue());
			}
		}
	}

	// ---- responses

	/**
	 * Map a whole {@code generateContent} response.
	 * @param response the response
	 * @return the chat response
	 * @throws ModelResponseException if it has neither candidates nor a block reason
	 */
	public ChatResponse toResponse(GenerateContentResponse response) {
		StreamState state = new StreamState();
		boolean blocked = response.promptFeedback() != null && response.promptFeedback().blockReason() != null;
		ChatChunk chunk = toChunk(response, state);
		if (chunk == null || (!blocked && (response.candidates() == null || response.candidates().isEmpty()))) {
			throw new ModelResponseException(this.provider,
					this.provider + " returned a response without candidates or prompt feedback");
		}
		ChatResponseAccumulator accumulator = new ChatResponseAccumulator(this.provider);
		state.takeExtra().forEach(accumulator::add);
		accumulator.add(chunk);
		if (chunk.finishReason() == null) {
			// a whole response always ends: a missing reason is a plain stop
			accumulator.add(new ChatChunk("", List.of(), state.usage,
					state.calls > 0 ? FinishReason.TOOL_CALLS : FinishReason.STOP, null));
		}
		return accumulator.toResponse();
	}

	/**
	 * Map one response (a stream event, or a whole response) to a chunk.
	 * @param response the response
	 * @param state the stream's state, updated
	 * @return the chunk, or null when the event carries nothing
	 */
	public @Nullable ChatChunk toChunk(GenerateContentResponse response, StreamState state) {
		if (response.usageMetadata() != null) {
			state.usage = usage(response.usageMetadata());
		}
		String model = response.modelVersion();
		List<GenerateContentResponse.Candidate> candidates = response.candidates();
		if (candidates == null || candidates.isEmpty()) {
			GenerateContentResponse.PromptFeedback feedback = response.promptFeedback();
			if (feedback != null && feedback.blockReason() != null) {
				// nothing to answer with: say why, as a refusal the caller can show
				state.finished = true;
				return new ChatChunk("", List.of(), state.usage, FinishReason.CONTENT_FILTER, model, null,
						"The prompt was blocked by Gemini (" + feedback.blockReason() + ")");
			}
			if (response.usageMetadata() != null || model != null) {
				// usage after the finish reason is the final count
				return new ChatChunk("", List.of(), state.finished ? state.usage : null, null, model);
			}
			return null;
		}
		GenerateContentResponse.Candidate candidate = candidates.get(0);
		StringBuilder text = new StringBuilder();
		List<ToolCallDelta> calls = new ArrayList<>(1);
		List<ReasoningDelta> reasoning = new ArrayList<>(1);
		List<GenerateContentResponse.Part> parts = (candidate.content() != null
				&& candidate.content().parts() != null) ? candidate.content().parts() : List.of();
		for (GenerateContentResponse.Part part : parts) {
			if (part.isThought()) {
				if (state.thoughtIndex < 0) {
					state.thoughtIndex = state.nextReasoningIndex++;
				}
				reasoning.add(new ReasoningDelta(state.thoughtIndex, Objects.requireNonNullElse(part.text(), ""),
						part.thoughtSignature(), null));
				if (part.thoughtSignature() != null) {
					// a signature closes its block: later thoughts start another
					state.thoughtIndex = -1;
				}
				continue;
			}
			state.thoughtIndex = -1;
			if (part.thoughtSignature() != null && !part.thoughtSignature().isEmpty()) {
				reasoning.add(new ReasoningDelta(state.nextReasoningIndex++, "", part.thoughtSignature(), null));
			}
			if (part.functionCall() != null) {
				GenerateContentResponse.FunctionCall call = part.functionCall();
				int index = state.calls++;
				String id = (call.id() != null && !call.id().isBlank()) ? call.id() : "call_" + index;
				JsonNode args = call.args();
				String arguments = (args != null && !args.isNull()) ? this.jsonMapper.writeValueAsString(args) : "{}";
				calls.add(new ToolCallDelta(index, id, call.name(), arguments));
			}
			else if (part.text() != null) {
				text.append(part.text());
			}
		}
		FinishReason finish = null;
		if (candidate.finishReason() != null) {
			finish = finishReason(candidate.finishReason(), state.calls > 0);
			state.finished = true;
		}
		Usage usage = (finish != null) ? state.usage : null;
		if (reasoning.size() <= 1) {
			return new ChatChunk(text.toString(), calls, usage, finish, model,
					reasoning.isEmpty() ? null : reasoning.get(0), "");
		}
		// a chunk carries one reasoning piece: the others go in chunks of their own, first
		state.extra.clear();
		for (int i = 0; i < reasoning.size() - 1; i++) {
			state.extra.add(new ChatChunk("", List.of(), null, null, null, reasoning.get(i), ""));
		}
		return new ChatChunk(text.toString(), calls, usage, finish, model, reasoning.get(reasoning.size() - 1), "");
	}

	/**
	 * Map a Gemini finish reason.
	 * @param reason the wire value
	 * @param calledTools whether the answer holds function calls
	 * @return the finish reason
	 */
	static FinishReason finishReason(String reason, boolean calledTools) {
		return switch (reason) {
			case "STOP" -> calledTools ? FinishReason.TOOL_CALLS : FinishReason.STOP;
			case "MAX_TOKENS" -> FinishReason.LENGTH;
			case "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY",
					"IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION" ->
				FinishReason.CONTENT_FILTER;
			default -> FinishReason.OTHER;
		};
	}

	/**
	 * Map usage metadata. Gemini's {@code candidatesTokenCount} leaves thinking out; the
	 * output tokens here include it ({@code candidatesTokenCount + thoughtsTokenCount}),
	 * as they do for other providers.
	 * @param metadata the usage metadata
	 * @return the usage
	 */
	static Usage usage(GenerateContentResponse.UsageMetadata metadata) {
		long input = orZero(metadata.promptTokenCount());
		long thoughts = orZero(metadata.thoughtsTokenCount());
		long output = orZero(metadata.candidatesTokenCount()) + thoughts;
		long total = orZero(metadata.totalTokenCount());
		return new Usage(input, output, (total > 0) ? total : input + output, orZero(metadata.cachedContentTokenCount()),
				0, thoughts);
	}

	private static long orZero(@Nullable Long value) {
		return (value != null) ? value : 0;
	}

	/**
	 * Where one stream stands. Not thread-safe: one per stream, used by one signal at a
	 * time.
	 */
	public static final class StreamState {

		int calls;

		int nextReasoningIndex;

		int thoughtIndex = -1;

		@Nullable Usage usage;

		boolean finished;

		/** Chunks to emit before the one returned, when an event held several reasoning pieces. */
		final List<ChatChunk> extra = new ArrayList<>(2);

		/**
		 * Return whether the model said why it stopped, or the prompt was blocked.
		 * @return whether the answer is complete
		 */
		public boolean finished() {
			return this.finished;
		}

		/**
		 * Return and forget the chunks to emit before the last one returned.
		 * @return the chunks, often none
		 */
		public List<ChatChunk> takeExtra() {
			if (this.extra.isEmpty()) {
				return List.of();
			}
			List<ChatChunk> taken = List.copyOf(this.extra);
			this.extra.clear();
			return taken;
		}

	}

}
