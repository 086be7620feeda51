package dev.agcore.tool.schema;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.agcore.AgentName;
import dev.agcore.AgentPrincipal;
import dev.agcore.RawArguments;
import dev.agcore.SessionId;
import dev.agcore.State;
import dev.agcore.ToolCallId;
import dev.agcore.ToolParam;
import dev.agcore.memory.LongTermStore;
import dev.agcore.memory.SessionMemory;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolDefinitionException;
import org.jspecify.annotations.Nullable;

import org.springframework.core.GenericTypeResolver;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.AnnotatedMethod;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * One parameter of a tool method as the model sees it. Schema generation and argument
 * binding both work from this, so they agree on names, types and what is required.
 *
 * @param index the position of the parameter in the method's parameter list
 * @param name the parameter name (from {@code -parameters} reflection)
 * @param type the declared generic type, with the target class's type variables resolved
 * @param description the {@link ToolParam#description()} (or Jackson's
 * {@code @JsonPropertyDescription}), or {@code null} if none
 * @param required whether the model must supply a value
 * @param defaultValue the {@link ToolParam#defaultValue()} as written, or {@code null}
 * if none
 * @param annotations the parameter's annotations, merged from the methods it overrides
 * (constraints among them become schema keywords)
 */
public record ToolParameter(int index, String name, Type type, @Nullable String description, boolean required,
		@Nullable String defaultValue, List<Annotation> annotations) {

	// java.security.Principal: the caller's AgentPrincipal
	private static final List<Class<?>> INJECTED_TYPES = List.of(ToolContext.class, SessionMemory.class,
			LongTermStore.class, Principal.class, AgentPrincipal.class);

	private static final List<Class<? extends Annotation>> INJECTED_ANNOTATIONS = List.of(ToolCallId.class,
			SessionId.class, AgentName.class, State.class, RawArguments.class);

	public ToolParameter {
		Objects.requireNonNull(name, "'name' must not be null");
		Objects.requireNonNull(type, "'type' must not be null");
		annotations = List.copyOf(annotations);
	}

	/**
	 * Create a parameter without a default value.
	 * @param index the position of the parameter
	 * @param name the name
	 * @param type the type
	 * @param description the description, or {@code null}
	 * @param required whether the model must supply a value
	 */
	public ToolParameter(int index, String name, Type type, @Nullable String description, boolean required) {
		this(index, name, type, description, required, null, List.of());
	}

	/**
	 * Return whether the declared type is {@link Optional}.
	 * @return whether the value is wrapped in an {@code Optional}
	 */
	public boolean isOptional() {
		return rawClass(this.type) == Optional.class;
	}

	/**
	 * Return the type the argument value binds to: the declared type, or {@code T} for an
	 * {@code Optional<T>}.
	 * @return the value type
	 */
	public Type valueType() {
		return unwrapOptional(this.type);
	}

	static Type unwrapOptional(Type type) {
		if (rawClass(type) == Optional.class) {
			return (type instanceof ParameterizedType parameterized) ? parameterized.getActualTypeArguments()[0]
					: Object.class;
		}
		return type;
	}

	/**
	 * Return whether the runtime, not the model, supplies a parameter: a
	 * {@link ToolContext}, {@link SessionMemory} or {@link LongTermStore}, or a parameter
	 * annotated {@link ToolCallId @ToolCallId}, {@link SessionId @SessionId},
	 * {@link AgentName @AgentName}, {@link State @State} or
	 * {@link RawArguments @RawArguments}.
	 * @param parameter the parameter, with annotations merged from overridden methods
	 * @return whether the parameter is left out of the schema
	 */
	public static boolean isInjected(MethodParameter parameter) {
		Class<?> type = parameter.getParameterType();
		for (Class<?> injected : INJECTED_TYPES) {
			if (type == injected) {
				return true;
			}
		}
		for (Class<? extends Annotation> annotation : INJECTED_ANNOTATIONS) {
			if (parameter.hasParameterAnnotation(annotation)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Return the model-visible parameters of a method: every parameter that is not
	 * {@linkplain #isInjected(MethodParameter) injected}.
	 * @param method the tool method
	 * @param targetClass the class the method is called on, to resolve type variables
	 * @return the parameters in declaration order
	 * @throws ToolDefinitionException if parameter names were not compiled in
	 */
	public static List<ToolParameter> forMethod(Method method, Class<?> targetClass) {
		Objects.requireNonNull(method, "'method' must not be null");
		Objects.requireNonNull(targetClass, "'targetClass' must not be null");
		Class<?> userClass = ClassUtils.getUserClass(targetClass);
		// AnnotatedMethod merges @ToolParam declared on an interface's parameters
		MethodParameter[] merged = new AnnotatedMethod(method).getMethodParameters();
		Parameter[] parameters = method.getParameters();
		List<ToolParameter> result = new ArrayList<>(parameters.length);
		for (int i = 0; i < parameters.length; i++) {
			Parameter parameter = parameters[i];
			if (isInjected(merged[i])) {
				continue;
			}
			if (!parameter.isNamePresent()) {
				throw new ToolDefinitionException("parameter names are not available; compile with '-parameters'");
			}
			Type type = GenericTypeResolver.resolveType(parameter.getParameterizedType(), userClass);
			ToolParam toolParam = merged[i].getParameterAnnotation(ToolParam.class);
			boolean nullable = Nullness.isNullable(merged[i].getParameterAnnotations(), parameter.getAnnotatedType());
			String defaultValue = (toolParam != null && !ToolParam.NO_DEFAULT.equals(toolParam.defaultValue()))
					? toolParam.defaultValue() : null;
			boolean required = (toolParam == null || toolParam.required()) && defaultValue == null
					&& rawClass(type) != Optional.class && !nullable;
			result.add(new ToolParameter(i, parameter.getName(), type, description(merged[i], toolParam), required,
					defaultValue, List.of(merged[i].getParameterAnnotations())));
		}
		return List.copyOf(result);
	}

	private static @Nullable String description(MethodParameter parameter, @Nullable ToolParam toolParam) {
		if (toolParam != null && StringUtils.hasText(toolParam.description())) {
			return toolParam.description();
		}
		JsonPropertyDescription jackson = parameter.getParameterAnnotation(JsonPropertyDescription.class);
		return (jackson != null && StringUtils.hasText(jackson.value())) ? jackson.value() : null;
	}

	private static @Nullable Class<?> rawClass(Type type) {
		if (type instanceof Class<?> clazz) {
			return clazz;
		}
		if (type instanceof ParameterizedType parameterized && parameterized.getRawType() instanceof Class<?> raw) {
			return raw;
		}
		return null;
	}

}
