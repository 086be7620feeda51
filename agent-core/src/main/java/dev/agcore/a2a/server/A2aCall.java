package dev.agcore.a2a.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.a2a.spec.InvalidRequestError;
import io.a2a.spec.JSONParseError;
import io.a2a.spec.MessageSendParams;
import io.a2a.util.Utils;
import org.jspecify.annotations.Nullable;

/**
 * A JSON-RPC request, checked: its id, method and params, read with the A2A SDK's mapper.
 * What is wrong with a request is an {@link A2aFailure} naming it.
 *
 * @param id the request's id: a string, an integer or {@code null}
 * @param method the method
 * @param params the params, {@code null} when none
 */
record A2aCall(@Nullable Object id, String method, @Nullable JsonNode params) {

	static A2aCall read(String body) {
		JsonNode tree;
		try {
			tree = Utils.OBJECT_MAPPER.readTree(body);
		}
		catch (JsonProcessingException ex) {
			throw new A2aFailure(new JSONParseError(null,
					"Invalid JSON: " + A2aServer.bounded(String.valueOf(ex.getOriginalMessage())), null));
		}
		if (tree == null || !tree.isObject()) {
			throw new A2aFailure(new InvalidRequestError(null,
					"The request must be a JSON-RPC 2.0 request object (batches are not supported)", null));
		}
		JsonNode idNode = tree.get("id");
		Object id = null;
		if (idNode != null && idNode.isTextual() && idNode.asText().length() <= A2aServer.MAX_ID_LENGTH) {
			id = idNode.asText();
		}
		else if (idNode != null && idNode.isIntegralNumber() && idNode.canConvertToInt()) {
			id = idNode.intValue();
		}
		else if (idNode != null && !idNode.isNull()) {
			throw new A2aFailure(new InvalidRequestError(null,
					"'id' must be a string of at most " + A2aServer.MAX_ID_LENGTH + " characters, a 32-bit integer or null", null));
		}
		if (!"2.0".equals(tree.path("jsonrpc").asText(null))) {
			throw new A2aFailure(new InvalidRequestError(null, "'jsonrpc' must be \"2.0\"", null));
		}
		JsonNode method = tree.get("method");
		if (method == null || !method.isTextual() || method.asText().isBlank()) {
			throw new A2aFailure(new InvalidRequestError(null, "'method' is required: a string", null));
		}
		JsonNode params = tree.get("params");
		return new A2aCall(id, method.asText(), params);
	}

	<T> T params(Class<T> type) {
		if (this.params == null || !this.params.isObject()) {
			throw A2aFailure.invalidParams("'params' of " + this.method + " is required: an object");
		}
		if (type == MessageSendParams.class && !this.params.path("message").isObject()) {
			throw A2aFailure.invalidParams("params.message is required: an object");
		}
		if (type != MessageSendParams.class && !this.params.path("id").isTextual()) {
			throw A2aFailure.invalidParams("params.id is required: the task's id");
		}
		try {
			T value = Utils.OBJECT_MAPPER.treeToValue(this.params, type);
			if (value == null) {
				throw A2aFailure.invalidParams("'params' of " + this.method + " is required: an object");
			}
			return value;
		}
		catch (JsonProcessingException | IllegalArgumentException ex) {
			String reason = String.valueOf((ex instanceof JsonProcessingException json) ? json.getOriginalMessage()
					: ex.getMessage());
			// what was wrong, not which class could not be built
			int problem = reason.indexOf("problem: ");
			reason = (problem >= 0) ? reason.substring(problem + "problem: ".length()) : reason;
			throw A2aFailure.invalidParams("Invalid params of " + this.method + ": " + A2aServer.bounded(reason));
		}
	}

}
