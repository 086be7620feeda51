package dev.agcore.memory.codec;

import java.net.URI;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import dev.agcore.json.AgentJson;
import dev.agcore.memory.MemoryException;
import dev.agcore.memory.PendingTurn;
import dev.agcore.memory.PendingTurn.PendingToolCall;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Media;
import dev.agcore.message.Message;
import dev.agcore.message.Reasoning;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON form in which persistent stores keep messages and paused turns. Every document
 * carries a format version ({@code "v"}), so a later release can read what an earlier one
 * wrote, and a document written by a newer release is refused with a clear error instead
 * of being misread. Every message kind and field round-trips exactly. Thread-safe.
 * <p>
 * Fields added after the first release are optional and written only when set, so
 * readers of version 1 that ignore unknown fields read them as before: an assistant
 * message's {@code reasoning} (text, signature, redacted data), {@code refusal} and
 * {@code agent} (the agent whose turn recorded it; absent from messages stored before it
 * was added, which read with no agent), a user
 * message's {@code name} and {@code media} (media type, and a URL or the bytes in base64,
 * with the file name; stored whole, bounded only by what the request that carried them
 * was allowed), a system message's {@code developer} flag.
 *
 * @since 0.1.0
 */
public final class MemoryCodec {

	/** The format version this codec writes. */
	public static final int VERSION = 1;

	private static final MemoryCodec INSTANCE = new MemoryCodec(AgentJson.mapper());

	private final JsonMapper mapper;

	private MemoryCodec(JsonMapper mapper) {
		this.mapper = mapper;
	}

	/**
	 * Return the codec.
	 * @return the shared instance
	 */
	public static MemoryCodec get() {
		return INSTANCE;
	}

	/**
	 * Return the kind of a message as stored in a column of its own: {@code system},
	 * {@code user}, {@code assistant} or {@code tool}.
	 * @param message the message
	 * @return the kind
	 */
	public static String kind(Message message) {
		return message.role().name().toLowerCase(java.util.Locale.ROOT);
	}

	/**
	 * Write a message as JSON.
	 * @param message the message
	 * @return the JSON text
	 */
	public String encode(Message message) {
		return write(messageNode(message));
	}

	/**
	 * Read a message written by {@link #encode(Message)}.
	 * @param json the JSON text
	 * @return the message
	 * @throws MemoryException if the text is not a stored message
	 */
	public Message decodeMessage(String json) {
		return message(read(json, "message"));
	}

	/**
	 * Write a paused turn as JSON.
	 * @param turn the turn
	 * @return the JSON text
	 */
	public String encode(PendingTurn turn) {
		ObjectNode node = this.mapper.createObjectNode();
		node.put("v", VERSION);
		node.put("agent", turn.agentName());
		ArrayNode messages = node.putArray("messages");
		turn.messages().forEach((message) -> messages.add(messageNode(message)));
		ArrayNode calls = node.putArray("pendingCalls");
		for (PendingToolCall call : turn.pendingCalls()) {
			calls.addObject()
				.put("id", call.id())
				.put("name", call.name())
				.put("arguments", call.arguments())
				.put("reason", call.reason());
		}
		node.put("modelCalls", turn.modelCalls());
		node.put("inputTokens", turn.inputTokens());
		node.put("outputTokens", turn.outputTokens());
		return write(node);
	}

	/**
	 * Read a paused turn written by {@link #encode(PendingTurn)}.
	 * @param json the JSON text
	 * @return the turn
	 * @throws MemoryException if the text is not a stored paused turn
	 */
	public PendingTurn decodePendingTurn(String json) {
		JsonNode node = read(json, "paused turn");
		try {
			List<Message> messages = new ArrayList<>();
			node.required("messages").forEach((message) -> messages.add(message(message)));
			List<PendingToolCall> calls = new ArrayList<>();
			node.required("pendingCalls")
				.forEach((call) -> calls.add(new PendingToolCall(text(call, "id"), text(call, "name"),
						text(call, "arguments"), text(call, "reason"))));
			return new PendingTurn(text(node, "agent"), messages, calls, node.required("modelCalls").asInt(),
					node.required("inputTokens").asLong(), node.required("outputTokens").asLong());
		}
		catch (IllegalArgumentException | JacksonException ex) {
			throw new MemoryException("A stored paused turn is malformed: " + ex.getMessage(), ex);
		}
	}

	private ObjectNode messageNode(Message message) {
		ObjectNode node = this.mapper.createObjectNode();
		node.put("v", VERSION);
		node.put("kind", kind(message));
		node.put("text", message.text());
		if (message instanceof AssistantMessage assistant) {
			if (assistant.hasToolCalls()) {
				ArrayNode calls = node.putArray("toolCalls");
				for (ToolCall call : assistant.toolCalls()) {
					calls.addObject().put("id", call.id()).put("name", call.name()).put("arguments", call.arguments());
				}
			}
			if (assistant.hasReasoning()) {
				ArrayNode blocks = node.putArray("reasoning");
				for (Reasoning reasoning : assistant.reasoning()) {
					ObjectNode block = blocks.addObject().put("text", reasoning.text());
					if (reasoning.signature() != null) {
						block.put("signature", reasoning.signature());
					}
					if (reasoning.redactedData() != null) {
						block.put("redactedData", reasoning.redactedData());
					}
				}
			}
			if (assistant.refusal() != null) {
				node.put("refusal", assistant.refusal());
			}
			if (assistant.agent() != null) {
				node.put("agent", assistant.agent());
			}
		}
		else if (message instanceof UserMessage user) {
			if (user.name() != null) {
				node.put("name", user.name());
			}
			if (user.hasMedia()) {
				ArrayNode media = node.putArray("media");
				for (Media each : user.media()) {
					ObjectNode item = media.addObject().put("mediaType", each.mediaType());
					if (each.url() != null) {
						item.put("url", each.url().toString());
					}
					else {
						item.put("data", each.base64());
					}
					if (each.fileName() != null) {
						item.put("fileName", each.fileName());
					}
				}
			}
		}
		else if (message instanceof SystemMessage system && system.developer()) {
			node.put("developer", true);
		}
		else if (message instanceof ToolResultMessage result) {
			node.put("toolCallId", result.toolCallId());
			node.put("toolName", result.toolName());
			node.put("error", result.error());
		}
		return node;
	}

	private Message message(JsonNode node) {
		try {
			String text = text(node, "text");
			return switch (text(node, "kind")) {
				case "system" -> new SystemMessage(text, node.path("developer").asBoolean(false));
				case "user" -> {
					List<Media> media = new ArrayList<>();
					node.path("media").forEach((item) -> media.add(media(item)));
					yield new UserMessage(text, media, optionalText(node, "name"));
				}
				case "assistant" -> {
					List<ToolCall> calls = new ArrayList<>();
					JsonNode toolCalls = node.path("toolCalls");
					toolCalls.forEach((call) -> calls
						.add(new ToolCall(text(call, "id"), text(call, "name"), text(call, "arguments"))));
					List<Reasoning> reasoning = new ArrayList<>();
					node.path("reasoning")
						.forEach((block) -> reasoning.add(new Reasoning(text(block, "text"),
								optionalText(block, "signature"), optionalText(block, "redactedData"))));
					yield new AssistantMessage(text, calls, reasoning, optionalText(node, "refusal"),
							optionalText(node, "agent"));
				}
				case "tool" -> new ToolResultMessage(text(node, "toolCallId"), text(node, "toolName"), text,
						node.required("error").asBoolean());
				default -> throw new IllegalArgumentException("unknown message kind '" + text(node, "kind") + "'");
			};
		}
		catch (IllegalArgumentException | JacksonException ex) {
			throw new MemoryException("A stored message is malformed: " + ex.getMessage(), ex);
		}
	}

	private JsonNode read(String json, String what) {
		JsonNode node;
		try {
			node = this.mapper.readTree(json);
		}
		catch (JacksonException ex) {
			throw new MemoryException("A stored " + what + " is not valid JSON: " + ex.getOriginalMessage(), ex);
		}
		int version = node.path("v").asInt(0);
		if (version != VERSION) {
			throw new MemoryException("A stored " + what + " has format version " + node.path("v")
					+ ", this release reads version " + VERSION + " (was it written by a newer release?)");
		}
		return node;
	}

	private static Media media(JsonNode item) {
		String mediaType = text(item, "mediaType");
		String url = optionalText(item, "url");
		String fileName = optionalText(item, "fileName");
		if (url != null) {
			return new Media(mediaType, URI.create(url), null, fileName);
		}
		return new Media(mediaType, null, Base64.getDecoder().decode(text(item, "data")), fileName);
	}

	private static @Nullable String optionalText(JsonNode node, String field) {
		JsonNode value = node.get(field);
		if (value == null || value.isNull()) {
			return null;
		}
		if (!value.isString()) {
			throw new IllegalArgumentException("'" + field + "' is not a string");
		}
		return value.asString();
	}

	private static String text(JsonNode node, String field) {
		JsonNode value = node.required(field);
		if (!value.isString()) {
			throw new IllegalArgumentException("'" + field + "' is not a string");
		}
		return value.asString();
	}

	private String write(JsonNode node) {
		return this.mapper.writeValueAsString(node);
	}

}
