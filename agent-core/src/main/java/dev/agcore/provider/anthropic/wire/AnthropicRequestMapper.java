package dev.agcore.provider.anthropic.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Media;
import dev.agcore.message.Message;
import dev.agcore.message.Reasoning;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ModelRequestException;
import dev.agcore.model.ResponseFormat;
import dev.agcore.model.ToolChoice;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds Anthropic Messages API request bodies from the library's types. The body is a
 * JSON tree rather than records: {@code cache_control} marks and the configured extra
 * body fields go wherever the API allows without a record for every variant.
 * Thread-safe.
 */
public final class AnthropicRequestMapper {

	/**
	 * The tool that carries a structured answer: Anthropic has no response format, so the
	 * schema becomes this tool's input schema and its call becomes the answer text.
	 */
	public static final String ANSWER_TOOL = "final_answer";

	/** The {@code max_tokens} sent when the options set none; Anthropic requires one. */
	public static final int DEFAULT_MAX_TOKENS = 4096;

	private static final String ANSWER_TOOL_NOTE = "When you have the final answer, call the " + ANSWER_TOOL
			+ " tool with it instead of answering in text.";

	private final String provider;

	private final JsonMapper jsonMapper;

	/**
	 * Create a mapper.
	 * @param provider the provider name used in exceptions
	 * @param jsonMapper the mapper that parses tool arguments and builds the body
	 */
	public AnthropicRequestMapper(String provider, JsonMapper jsonMapper) {
		this.provider = Objects.requireNonNull(provider, "'provider' must not be null");
		this.jsonMapper = Objects.requireNonNull(jsonMapper, "'jsonMapper' must not be null");
	}

	/**
	 * Return whether a request's answer goes through the {@link #ANSWER_TOOL}.
	 * @param options the request's options
	 * @return whether the answer tool is sent
	 */
	public static boolean usesAnswerTool(ChatOptions options) {
		ResponseFormat format = options.responseFormat();
		return format != null && format.type() != ResponseFormat.Type.TEXT;
	}

	/**
	 * Build a request body.
	 * @param messages the conversation
	 * @param tools the tools
	 * @param options the request's options, merged with the model's defaults
	 * @param model the model
	 * @param stream whether to stream
	 * @param promptCaching whether to mark the last system block and tool as cacheable
	 * @param extraBody fields merged into the body last
	 * @return the body
	 * @throws ModelRequestException if a message holds media Anthropic does not take, or
	 * the answer schema is not an object schema
	 */
	public ObjectNode toRequest(List<Message> messages, List<ToolSpec> tools, ChatOptions options, String model,
			boolean stream, boolean promptCaching, Map<String, Object> extraBody) {
		ObjectNode body = this.jsonMapper.createObjectNode();
		body.put("model", model);
		Integer budget = options.thinkingBudget();
		boolean thinking = budget != null && budget > 0;
		int maxTokens = (options.maxTokens() != null) ? options.maxTokens()
				: (thinking ? budget + DEFAULT_MAX_TOKENS : DEFAULT_MAX_TOKENS);
		body.put("max_tokens", maxTokens);
		boolean answerTool = usesAnswerTool(options);
		List<String> system = new ArrayList<>(2);
		ArrayNode wireMessages = body.putArray("messages");
		ArrayNode toolResults = null;
		for (Message message : messages) {
			if (message instanceof SystemMessage instructions) {
				system.add(instructions.text());
				continue;
			}
			if (message instanceof ToolResultMessage result) {
				// consecutive results go back in one user message, as Anthropic asks
				if (toolResults == null) {
					ObjectNode user = wireMessages.addObject().put("role", "user");
					toolResults = user.putArray("content");
				}
				ObjectNode block = toolResults.addObject()
					.put("type", "tool_result")
					.put("tool_use_id", result.toolCallId())
					.put("content", result.text());
				if (result.error()) {
					block.put("is_error", true);
				}
				continue;
			}
			toolResults = null;
			if (message instanceof UserMessage user) {
				addUser(wireMessages, user);
			}
			else if (message instanceof AssistantMessage assistant) {
				addAssistant(wireMessages, assistant);
			}
		}
		List<ObjectNode> wireTools = new ArrayList<>(tools.size() + 1);
		// tool choice none with a structured answer: the answer tool is the only one offered
		boolean answerOnly = answerTool && options.toolChoice() != null
				&& options.toolChoice().mode() == ToolChoice.Mode.NONE;
		for (ToolSpec tool : answerOnly ? List.<ToolSpec>of() : tools) {
			if (answerTool && tool.name().equals(ANSWER_TOOL)) {
				throw new ModelRequestException(this.provider, 0,
						"A tool named '" + ANSWER_TOOL + "' cannot be used with a response format on " + this.provider
								+ ": the name is taken by the structured answer");
			}
			wireTools.add(tool(tool.name(), tool.description(), tool.inputSchema()));
		}
		if (answerTool) {
			wireTools.add(answerTool(options.responseFormat()));
			if (!tools.isEmpty() || thinking) {
				system.add(ANSWER_TOOL_NOTE);
			}
		}
		if (!system.isEmpty()) {
			ArrayNode systemBlocks = body.putArray("system");
			for (String text : system) {
				systemBlocks.addObject().put("type", "text").put("text", text);
			}
			if (promptCaching) {
				cacheControl((ObjectNode) systemBlocks.get(systemBlocks.size() - 1));
			}
		}
		if (!wireTools.isEmpty()) {
			ArrayNode toolArray = body.putArray("tools");
			wireTools.forEach(toolArray::add);
			if (promptCaching) {
				cacheControl(wireTools.get(wireTools.size() - 1));
			}
			ObjectNode toolChoice = toolChoice(options.toolChoice(), answerTool, tools.isEmpty(), thinking);
			if (toolChoice != null) {
				body.set("tool_choice", toolChoice);
			}
		}
		if (thinking) {
			body.putObject("thinking").put("type", "enabled").put("budget_tokens", budget);
		}
		else if (options.temperature() != null) {
			// Anthropic rejects a temperature with thinking on
			body.put("temperature", options.temperature());
		}
		if (options.topP() != null) {
			body.put("top_p", options.topP());
		}
		if (!options.stop().isEmpty()) {
			ArrayNode stop = body.putArray("stop_sequences");
			options.stop().forEach(stop::add);
		}
		if (stream) {
			body.put("stream", true);
		}
		for (Map.Entry<String, Object> field : extraBody.entrySet()) {
			body.set(field.getKey(), this.jsonMapper.valueToTree(field.getValue()));
		}
		return body;
	}

	private void addUser(ArrayNode wireMessages, UserMessage user) {
		ObjectNode wire = wireMessages.addObject().put("role", "user");
		if (!user.hasMedia()) {
			wire.put("content", user.text());
			return;
		}
		ArrayNode content = wire.putArray("content");
		// media first: Anthropic recommends images before the text about them
		for (Media media : user.media()) {
			content.add(media(media));
		}
		if (!user.text().isEmpty()) {
			content.addObject().put("type", "text").put("text", user.text());
		}
	}

	private ObjectNode media(Media media) {
		String type;
		if (media.isImage()) {
			type = "image";
		}
		else if (media.isPdf()) {
			type = "document";
		}
		else {
			throw new ModelRequestException(this.provider, 0, this.provider + " does not accept media of type '"
					+ media.mediaType() + "'; it takes images and application/pdf");
		}
		ObjectNode block = this.jsonMapper.createObjectNode().put("type", type);
		ObjectNode source = block.putObject("source");
		if (media.url() != null) {
			source.put("type", "url").put("url", media.url().toString());
		}
		else {
			source.put("type", "base64").put("media_type", media.mediaType()).put("data", media.base64());
		}
		return block;
	}

	private void addAssistant(ArrayNode wireMessages, AssistantMessage assistant) {
		ArrayNode content = this.jsonMapper.createArrayNode();
		// thinking first and unchanged: Anthropic verifies the signatures; blocks without one
		// (another provider's reasoning) cannot be verified and are left out
		for (Reasoning reasoning : assistant.reasoning()) {
			if (reasoning.isRedacted()) {
				content.addObject().put("type", "redacted_thinking").put("data", reasoning.redactedData());
			}
			else if (reasoning.signature() != null) {
				content.addObject()
					.put("type", "thinking")
					.put("thinking", reasoning.text())
					.put("signature", reasoning.signature());
			}
		}
		String text = !assistant.text().isEmpty() ? assistant.text()
				: (assistant.refusal() != null) ? assistant.refusal() : "";
		if (!text.isEmpty()) {
			content.addObject().put("type", "text").put("text", text);
		}
		for (ToolCall call : assistant.toolCalls()) {
			content.addObject()
				.put("type", "tool_use")
				.put("id", call.id())
				.put("name", call.name())
				.set("input", arguments(call));
		}
		// Anthropic rejects empty content; an empty turn says nothing anyway
		if (!content.isEmpty()) {
			wireMessages.addObject().put("role", "assistant").set("content", content);
		}
	}

	private JsonNode arguments(ToolCall call) {
		try {
			JsonNode input = this.jsonMapper.readTree(call.arguments());
			if (input.isObject()) {
				return input;
			}
		}
		catch (JacksonException ex) {
			// reported below
		}
		throw new ModelRequestException(this.provider, 0, "The arguments of tool call '" + call.id() + "' ("
				+ call.name() + ") are not a JSON object; " + this.provider + " requires one");
	}

	private ObjectNode tool(String name, String description, ObjectNode schema) {
		ObjectNode tool = this.jsonMapper.createObjectNode().put("name", name);
		if (!description.isEmpty()) {
			tool.put("description", description);
		}
		tool.set("input_schema", schema);
		return tool;
	}

	private ObjectNode answerTool(@Nullable ResponseFormat format) {
		ObjectNode schema = (format != null) ? format.schema() : null;
		if (schema == null) {
			schema = this.jsonMapper.createObjectNode().put("type", "object");
		}
		JsonNode type = schema.get("type");
		if (type != null && !(type.isString() && "object".equals(type.asString()))) {
			throw new ModelRequestException(this.provider, 0, this.provider
					+ " takes a structured answer only as a JSON object; the response schema's type is " + type);
		}
		String name = (format != null && format.name() != null) ? format.name() : "answer";
		return tool(ANSWER_TOOL, "Give the final answer (" + name + ") in this shape.", schema);
	}

	private @Nullable ObjectNode toolChoice(@Nullable ToolChoice choice, boolean answerTool, boolean noOtherTools,
			boolean thinking) {
		ObjectNode node = this.jsonMapper.createObjectNode();
		if (answerTool) {
			if (choice != null && choice.mode() == ToolChoice.Mode.NONE) {
				// no real tool is offered: only the answer is left, forced unless thinking is on
				// (Anthropic allows no forced tool with thinking)
				return thinking ? node.put("type", "auto") : node.put("type", "tool").put("name", ANSWER_TOOL);
			}
			if (choice == null || choice.mode() == ToolChoice.Mode.AUTO) {
				// forced when it is the only tool; Anthropic allows no forcing with thinking on
				return node.put("type", (noOtherTools && !thinking) ? "any" : "auto");
			}
		}
		if (choice == null) {
			return null;
		}
		return switch (choice.mode()) {
			case AUTO -> node.put("type", "auto");
			case NONE -> node.put("type", "none");
			case REQUIRED -> node.put("type", "any");
			case TOOL -> node.put("type", "tool").put("name", choice.toolName());
		};
	}

	private static void cacheControl(ObjectNode node) {
		node.putObject("cache_control").put("type", "ephemeral");
	}

}
