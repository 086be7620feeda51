package dev.agcore.tool.method;

import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.agcore.AgentName;
import dev.agcore.AgentPrincipal;
import dev.agcore.RawArguments;
import dev.agcore.SessionId;
import dev.agcore.State;
import dev.agcore.ToolCallId;
import dev.agcore.memory.LongTermStore;
import dev.agcore.memory.SessionMemory;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolDefinitionException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.core.MethodParameter;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;

/**
 * How the runtime fills a parameter the model never sees: from the call's
 * {@link ToolContext} (declared by type or annotation), or with the raw arguments.
 */
sealed interface Injection {

	/** The key of a parameter kind that may appear at most once per method. */
	String kind();

	/**
	 * Return how a parameter is injected, or {@code null} if the model fills it.
	 * @param parameter the parameter, with merged annotations
	 * @param type its generic type, resolved against the target class
	 * @param mapper the mapper state entries are converted with
	 * @return the injection, or {@code null}
	 * @throws ToolDefinitionException if the declaration is invalid
	 */
	static @Nullable Injection of(MethodParameter parameter, Type type, JsonMapper mapper) {
		Class<?> raw = parameter.getParameterType();
		String name = "parameter '" + parameter.getParameterName() + "'";
		List<Annotation> markers = new ArrayList<>(1);
		for (Class<? extends Annotation> marker : List.of(ToolCallId.class, SessionId.class, AgentName.class,
				State.class, RawArguments.class)) {
			Annotation annotation = parameter.getParameterAnnotation(marker);
			if (annotation != null) {
				markers.add(annotation);
			}
		}
		if (markers.size() > 1) {
			throw new ToolDefinitionException(name + " has more than one of @ToolCallId, @SessionId, @AgentName, "
					+ "@State and @RawArguments");
		}
		if (markers.isEmpty()) {
			if (raw == ToolContext.class) {
				return new FromContext("ToolContext", (context) -> context);
			}
			if (raw == SessionMemory.class) {
				return new FromContext("SessionMemory", ToolContext::memory);
			}
			if (raw == LongTermStore.class) {
				return new FromContext("LongTermStore", ToolContext::store);
			}
			if (raw == Principal.class || raw == AgentPrincipal.class) {
				// null when the turn runs for no authenticated caller
				return new FromContext("Principal", ToolContext::principal);
			}
			return null;
		}
		Annotation marker = markers.get(0);
		if (marker instanceof RawArguments) {
			if (raw != JsonNode.class && raw != ObjectNode.class) {
				throw new ToolDefinitionException("@RawArguments " + name + " must be a JsonNode or an ObjectNode");
			}
			return new Raw(raw == ObjectNode.class);
		}
		if (marker instanceof State state) {
			return state(state, name, raw, type, mapper);
		}
		String label = "@" + marker.annotationType().getSimpleName();
		if (raw != String.class) {
			throw new ToolDefinitionException(label + " " + name + " must be a String");
		}
		if (marker instanceof ToolCallId) {
			return new FromContext(label, ToolContext::toolCallId);
		}
		return (marker instanceof SessionId) ? new FromContext(label, ToolContext::sessionId)
				: new FromContext(label, ToolContext::agentName);
	}

	private static Injection state(State state, String name, Class<?> raw, Type type, JsonMapper mapper) {
		if (state.value().isEmpty()) {
			if (raw != Map.class) {
				throw new ToolDefinitionException("@State " + name + " without a key must be a Map<String, Object>;"
						+ " use @State(\"key\") to inject one entry");
			}
			return new FromContext("@State", ToolContext::state);
		}
		if (raw.isPrimitive()) {
			throw new ToolDefinitionException("@State(\"" + state.value() + "\") " + name
					+ " must not be primitive, as the entry may be missing; use "
					+ ClassUtils.resolvePrimitiveIfNecessary(raw).getSimpleName());
		}
		boolean optional = raw == Optional.class;
		JavaType target = mapper.constructType(optional ? ResolvableType.forType(type).getGeneric(0).getType() : type);
		return new StateEntry(state.value(), target, optional, mapper);
	}

	/**
	 * A value taken from the call's context.
	 */
	record FromContext(String kind, ContextValue value) implements Injection {

	}

	/**
	 * The arguments as the model sent them.
	 *
	 * @param objectOnly whether the parameter is an {@code ObjectNode}
	 */
	record Raw(boolean objectOnly) implements Injection {

		@Override
		public String kind() {
			return "@RawArguments";
		}

	}

	/**
	 * One entry of the caller's state, converted to the parameter's type.
	 */
	record StateEntry(String key, JavaType type, boolean optional, JsonMapper mapper) implements Injection {

		@Override
		public String kind() {
			return "@State(\"" + this.key + "\")";
		}

		@Nullable Object value(ToolContext context) {
			Object entry = context.state().get(this.key);
			Object value = (entry == null || this.type.getRawClass().isInstance(entry)) ? entry : convert(entry);
			return this.optional ? Optional.ofNullable(value) : value;
		}

		private Object convert(Object entry) {
			try {
				return this.mapper.convertValue(entry, this.type);
			}
			catch (RuntimeException ex) {
				throw new IllegalStateException("State entry '" + this.key + "' of type "
						+ entry.getClass().getName() + " cannot be converted to " + this.type.getTypeName(), ex);
			}
		}

	}

	/**
	 * Reads a value from a context.
	 */
	@FunctionalInterface
	interface ContextValue {

		@Nullable Object get(ToolContext context);

	}

}
