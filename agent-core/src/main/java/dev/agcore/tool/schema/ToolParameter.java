package dev.agcore.tool.schema;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.agcore.ToolParam;
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
 * @param description the {@link ToolParam#description()}, or {@code null} if none
 * @param required whether the model must supply a value
 */
public record ToolParameter(int index, String name, Type type, @Nullable String description, boolean required) {

	public ToolParameter {
		Objects.requireNonNull(name, "'name' must not be null");
		Objects.requireNonNull(type, "'type' must not be null");
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
	 * Return the model-visible parameters of a method: every parameter except a
	 * {@link ToolContext}.
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
			if (parameter.getType() == ToolContext.class) {
				continue;
			}
			if (!parameter.isNamePresent()) {
				throw new ToolDefinitionException("parameter names are not available; compile with '-parameters'");
			}
			Type type = GenericTypeResolver.resolveType(parameter.getParameterizedType(), userClass);
			ToolParam toolParam = merged[i].getParameterAnnotation(ToolParam.class);
			boolean nullable = Nullness.isNullable(merged[i].getParameterAnnotations(), parameter.getAnnotatedType());
			boolean required = (toolParam == null || toolParam.required()) && rawClass(type) != Optional.class
					&& !nullable;
			String description = (toolParam != null && StringUtils.hasText(toolParam.description()))
					? toolParam.description() : null;
			result.add(new ToolParameter(i, parameter.getName(), type, description, required));
		}
		return List.copyOf(result);
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
