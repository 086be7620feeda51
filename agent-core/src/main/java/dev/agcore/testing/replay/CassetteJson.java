package dev.agcore.testing.replay;

import java.util.Iterator;
import java.util.Map;

import dev.agcore.json.AgentJson;
import dev.agcore.memory.codec.MemoryCodec;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.FinishReason;
import dev.agcore.model.Usage;
import dev.agcore.tool.ToolSpec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes requests and responses as the readable JSON of a cassette (messages in the
 * memory stores' format), and reads responses back.
 */
final class CassetteJson {

	static final JsonMapper MAPPER = AgentJson.mapper()
		.rebuild()
		.enable(SerializationFeature.INDENT_OUTPUT)
		.enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
		.build();

	private CassetteJson() {
	}

	static ObjectNode request(ChatRequest request) {
		ObjectNode node = MAPPER.createObjectNode();
		ArrayNode messages = node.putArray("messages");
		for (Message message : request.messages()) {
			messages.add(MAPPER.readTree(MemoryCodec.get().encode(message)));
		}
		ArrayNode tools = node.putArray("tools");
		for (ToolSpec tool : request.tools()) {
			tools.addObject()
				.put("name", tool.name())
				.put("description", tool.description())
				.set("inputSchema", tool.inputSchema());
		}
		JsonNode options = MAPPER.valueToTree(request.options());
		ObjectNode set = node.putObject("options");
		for (Map.Entry<String, JsonNode> option : options.properties()) {
			if (!option.getValue().isNull()) {
				set.set(option.getKey(), option.getValue());
			}
		}
		return node;
	}

	static ObjectNode response(ChatResponse response) {
		ObjectNode node = MAPPER.createObjectNode();
		node.set("message", MAPPER.readTree(MemoryCodec.get().encode(response.message())));
		Usage usage = response.usage();
		node.putObject("usage")
			.put("inputTokens", usage.inputTokens())
			.put("outputTokens", usage.outputTokens())
			.put("totalTokens", usage.totalTokens())
			.put("cachedInputTokens", usage.cachedInputTokens())
			.put("cacheWriteTokens", usage.cacheWriteTokens())
			.put("reasoningTokens", usage.reasoningTokens());
		node.put("finishReason", response.finishReason().name());
		node.put("model", response.model());
		return node;
	}

	static ChatResponse readResponse(JsonNode node) {
		Message message = MemoryCodec.get().decodeMessage(node.required("message").toString());
		if (!(message instanceof AssistantMessage assistant)) {
			throw new IllegalStateException("A recorded response must hold an assistant message, not " + message);
		}
		JsonNode usage = node.required("usage");
		Usage read = new Usage(usage.path("inputTokens").asLong(), usage.path("outputTokens").asLong(),
				usage.path("totalTokens").asLong(), usage.path("cachedInputTokens").asLong(),
				usage.path("cacheWriteTokens").asLong(), usage.path("reasoningTokens").asLong());
		return new ChatResponse(assistant, read, FinishReason.valueOf(node.required("finishReason").asString()),
				node.path("model").asString(""));
	}

	static String write(JsonNode node) {
		return MAPPER.writeValueAsString(node);
	}

	/** Replace every occurrence of a secret in the text values of a tree, in place. */
	static JsonNode redact(JsonNode node, Iterable<String> secrets) {
		if (node instanceof ObjectNode object) {
			Iterator<Map.Entry<String, JsonNode>> fields = object.properties().iterator();
			while (fields.hasNext()) {
				Map.Entry<String, JsonNode> field = fields.next();
				object.set(field.getKey(), redact(field.getValue(), secrets));
			}
			return object;
		}
		if (node instanceof ArrayNode array) {
			for (int i = 0; i < array.size(); i++) {
				array.set(i, redact(array.get(i), secrets));
			}
			return array;
		}
		if (node.isString()) {
			String text = node.asString();
			for (String secret : secrets) {
				text = text.replace(secret, CassetteChatModel.REDACTED);
			}
			return MAPPER.getNodeFactory().stringNode(text);
		}
		return node;
	}

}
