package dev.agcore.tool.secret;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Replaces {@code <secret_ref:NAME>} placeholders in a tool call's arguments with the
 * secrets' values. Only the top-level parameters a tool declares eligible may carry
 * placeholders (anywhere inside their value, including within longer strings); a
 * placeholder in any other parameter refuses the whole call.
 * <p>
 * The resolved arguments exist only for the tool: the call stored in the conversation
 * keeps its placeholders, and {@link Resolution#scrub} puts them back into anything the
 * tool returns.
 */
public final class SecretReferences {

	/** A placeholder; group 1 is the secret's name. */
	public static final Pattern PLACEHOLDER = Pattern.compile("<secret_ref:([A-Za-z0-9_./-]+)>");

	private static final String MARKER = "<secret_ref:";

	private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

	private SecretReferences() {
	}

	/**
	 * Resolve the placeholders of one call.
	 * @param arguments the arguments as the model sent them, a JSON object text
	 * @param eligible the parameters that may carry placeholders
	 * @param resolver where secrets come from
	 * @param mapper the mapper to read and write the arguments with
	 * @return the resolved arguments, and what to scrub from results
	 * @throws SecretReferenceException if a placeholder is misplaced or names an unknown
	 * secret
	 */
	public static Resolution resolve(String arguments, Set<String> eligible, SecretResolver resolver,
			JsonMapper mapper) {
		Objects.requireNonNull(arguments, "'arguments' must not be null");
		if (!arguments.contains(MARKER)) {
			return new Resolution(arguments, Map.of());
		}
		JsonNode tree;
		try {
			tree = mapper.readTree(arguments);
		}
		catch (JacksonException ex) {
			throw new SecretReferenceException("the arguments hold a secret reference but are not valid JSON");
		}
		if (!(tree instanceof ObjectNode object)) {
			throw new SecretReferenceException("secret references are only allowed in named parameters");
		}
		Map<String, String> resolved = new LinkedHashMap<>();
		for (String parameter : List.copyOf(object.propertyNames())) {
			JsonNode value = object.get(parameter);
			if (eligible.contains(parameter)) {
				object.set(parameter, substitute(value, parameter, resolver, resolved));
			}
			else if (holdsReference(value) || parameter.contains(MARKER)) {
				throw new SecretReferenceException("parameter '" + parameter
						+ "' may not carry a secret reference" + eligibleHint(eligible));
			}
		}
		return new Resolution(mapper.writeValueAsString(object), resolved);
	}

	private static JsonNode substitute(JsonNode value, String parameter, SecretResolver resolver,
			Map<String, String> resolved) {
		if (value.isString()) {
			String text = value.asString();
			return text.contains(MARKER) ? NODES.stringNode(replace(text, parameter, resolver, resolved)) : value;
		}
		if (value instanceof ObjectNode object) {
			for (String name : List.copyOf(object.propertyNames())) {
				object.set(name, substitute(object.get(name), parameter, resolver, resolved));
			}
		}
		else if (value instanceof ArrayNode array) {
			for (int i = 0; i < array.size(); i++) {
				array.set(i, substitute(array.get(i), parameter, resolver, resolved));
			}
		}
		return value;
	}

	private static String replace(String text, String parameter, SecretResolver resolver,
			Map<String, String> resolved) {
		Matcher matcher = PLACEHOLDER.matcher(text);
		StringBuilder result = new StringBuilder(text.length());
		while (matcher.find()) {
			String name = matcher.group(1);
			String secret = resolver.resolve(name);
			if (secret == null) {
				throw new SecretReferenceException("unknown secret '" + name + "' in parameter '" + parameter + "'");
			}
			if (!secret.isEmpty()) {
				resolved.putIfAbsent(secret, matcher.group());
			}
			matcher.appendReplacement(result, Matcher.quoteReplacement(secret));
		}
		matcher.appendTail(result);
		return result.toString();
	}

	private static boolean holdsReference(JsonNode value) {
		if (value.isString()) {
			return value.asString().contains(MARKER);
		}
		for (Map.Entry<String, JsonNode> property : value.properties()) {
			if (property.getKey().contains(MARKER) || holdsReference(property.getValue())) {
				return true;
			}
		}
		for (JsonNode element : value.values()) {
			if (holdsReference(element)) {
				return true;
			}
		}
		return false;
	}

	private static String eligibleHint(Set<String> eligible) {
		return eligible.isEmpty() ? "; this tool accepts none" : "; only " + eligible + " may";
	}

	/**
	 * Arguments with their secrets resolved.
	 */
	public static final class Resolution {

		private final String arguments;

		private final Map<String, String> secrets;

		private final SecretScrubber scrubber;

		/**
		 * Create a resolution.
		 * @param arguments the arguments to pass to the tool
		 * @param secrets each resolved secret value and the placeholder it replaced
		 */
		public Resolution(String arguments, Map<String, String> secrets) {
			this.arguments = Objects.requireNonNull(arguments, "'arguments' must not be null");
			this.secrets = Map.copyOf(secrets);
			this.scrubber = SecretScrubber.of(this.secrets);
		}

		/**
		 * Return the arguments to pass to the tool.
		 * @return the arguments, as a JSON object text
		 */
		public String arguments() {
			return this.arguments;
		}

		/**
		 * Return each resolved secret value and the placeholder it replaced.
		 * @return the secrets
		 */
		public Map<String, String> secrets() {
			return this.secrets;
		}

		/**
		 * Replace every resolved secret value in a text with its placeholder, so that
		 * whatever the tool returns never carries a secret back to the model: as it is,
		 * escaped as JSON writers do (once, or twice for JSON inside JSON), URL-encoded,
		 * or Base64-encoded (standard or URL-safe, also inside a longer encoded value).
		 * @param text the text, e.g. a tool result or error message
		 * @return the scrubbed text
		 */
		public String scrub(@Nullable String text) {
			return (text != null) ? this.scrubber.scrub(text) : "";
		}

		// names only: the values are secret
		@Override
		public String toString() {
			return "Resolution of " + this.secrets.values();
		}

	}

}
