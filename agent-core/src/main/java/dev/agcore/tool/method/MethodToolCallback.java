package dev.agcore.tool.method;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.regex.Pattern;

import dev.agcore.Tool;
import dev.agcore.json.AgentJson;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolDefinitionException;
import dev.agcore.tool.ToolSpec;
import dev.agcore.tool.schema.JsonSchemaGenerator;
import dev.agcore.tool.schema.ToolParameter;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * A {@link ToolCallback} that runs one {@link Tool @Tool} method of one object. The spec,
 * schema and argument readers are built once, when the callback is created; invalid
 * declarations fail then with a {@link ToolDefinitionException} naming the method.
 * <p>
 * Arguments are bound with a Jackson {@link JsonMapper} to the parameters' generic
 * types; a {@link ToolContext} parameter receives the call's context. The result is
 * returned as is if it is a {@link CharSequence}, as {@code ""} if the method is
 * {@code void} or returns {@code null}, and as JSON otherwise. Exceptions thrown by the
 * method propagate unwrapped. Static methods are supported and called without a target.
 */
public final class MethodToolCallback implements ToolCallback {

	// what the OpenAI, Anthropic and Gemini APIs all accept as a function name
	private static final Pattern TOOL_NAME = Pattern.compile("[a-zA-Z0-9_-]{1,64}");

	private final ToolSpec spec;

	private final @Nullable Object target;

	private final Method method;

	private final ArgumentBinder binder;

	private final JsonMapper mapper;

	private final String source;

	private MethodToolCallback(Builder builder) {
		Class<?> targetClass = ClassUtils
			.getUserClass((builder.targetClass != null) ? builder.targetClass : builder.bean.getClass());
		String where = targetClass.getName() + "#" + builder.method.getName();
		this.source = (builder.source != null) ? builder.source + " (" + where + ")" : where;
		this.mapper = (builder.mapper != null) ? builder.mapper : AgentJson.mapper();
		JsonSchemaGenerator generator = (builder.schemaGenerator != null) ? builder.schemaGenerator
				: (builder.mapper != null) ? new JsonSchemaGenerator(builder.mapper) : DefaultGenerator.INSTANCE;
		try {
			Tool tool = AnnotatedElementUtils.findMergedAnnotation(builder.method, Tool.class);
			if (tool == null) {
				throw new ToolDefinitionException("the method is not annotated with @Tool");
			}
			checkSignature(builder.method);
			List<ToolParameter> parameters = ToolParameter.forMethod(builder.method, targetClass);
			ObjectNode schema = generator.schemaForParameters(parameters);
			this.spec = new ToolSpec(name(tool, builder.method), description(tool, builder.method), schema);
			this.method = invocableMethod(builder.method, builder.bean);
			this.target = Modifier.isStatic(this.method.getModifiers()) ? null : builder.bean;
			this.binder = new ArgumentBinder(builder.method, parameters, schema, this.mapper);
		}
		catch (ToolDefinitionException | IllegalArgumentException ex) {
			throw new ToolDefinitionException("Invalid @Tool method " + where + ": " + ex.getMessage(), ex);
		}
	}

	/**
	 * Start building a callback for a method of a bean.
	 * @param bean the object to call the method on (for a proxy, the proxy itself)
	 * @param method the {@code @Tool} method, as declared on the target class
	 * @return a builder
	 */
	public static Builder builder(Object bean, Method method) {
		return new Builder(bean, method);
	}

	@Override
	public ToolSpec spec() {
		return this.spec;
	}

	@Override
	public String call(String arguments, ToolContext context) throws Exception {
		Objects.requireNonNull(context, "'context' must not be null");
		Object[] bound = this.binder.bind(arguments, context);
		return toText(invoke(bound));
	}

	@Override
	public String source() {
		return this.source;
	}

	@Override
	public String toString() {
		return "MethodToolCallback '" + this.spec.name() + "' of " + this.source;
	}

	private @Nullable Object invoke(Object[] arguments) throws Exception {
		try {
			return this.method.invoke(this.target, arguments);
		}
		catch (InvocationTargetException ex) {
			// the tool's own failure: let the agent loop report it as it is
			Throwable cause = ex.getCause();
			if (cause instanceof Exception exception) {
				throw exception;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw ex;
		}
		catch (IllegalAccessException ex) {
			throw new IllegalStateException("Cannot call " + this.source, ex);
		}
	}

	private String toText(@Nullable Object result) {
		if (result == null) {
			return "";
		}
		if (result instanceof CharSequence text) {
			return text.toString();
		}
		return this.mapper.writeValueAsString(result);
	}

	private static void checkSignature(Method method) {
		long contexts = Arrays.stream(method.getParameterTypes()).filter((type) -> type == ToolContext.class).count();
		if (contexts > 1) {
			throw new ToolDefinitionException("at most one ToolContext parameter is allowed, found " + contexts);
		}
		Class<?> returnType = method.getReturnType();
		if (Future.class.isAssignableFrom(returnType) || CompletionStage.class.isAssignableFrom(returnType)
				|| Publisher.class.isAssignableFrom(returnType)) {
			throw new ToolDefinitionException("tools run synchronously; return the value instead of a "
					+ returnType.getSimpleName());
		}
	}

	private static String name(Tool tool, Method method) {
		String name = StringUtils.hasText(tool.name()) ? tool.name() : method.getName();
		if (!TOOL_NAME.matcher(name).matches()) {
			throw new ToolDefinitionException(
					"tool name '" + name + "' must be 1 to 64 letters, digits, '_' or '-'");
		}
		return name;
	}

	// "getWeatherForecast" -> "Get weather forecast"
	private static String description(Tool tool, Method method) {
		if (StringUtils.hasText(tool.description())) {
			return tool.description();
		}
		String words = method.getName().replaceAll("([a-z0-9])([A-Z])", "$1 $2").replace('_', ' ').toLowerCase();
		return StringUtils.capitalize(words);
	}

	/**
	 * Return the method to invoke on the bean. A JDK proxy implements only interfaces,
	 * so a method found on the target class is called through the matching interface
	 * method, which the proxy dispatches to the target.
	 */
	private static Method invocableMethod(Method method, Object bean) {
		Method invocable = method;
		if (!Modifier.isStatic(method.getModifiers()) && !method.getDeclaringClass().isInstance(bean)) {
			invocable = interfaceMethod(method, bean.getClass());
			if (invocable == null) {
				throw new ToolDefinitionException("the bean of type " + bean.getClass().getName()
						+ " neither is a " + method.getDeclaringClass().getName()
						+ " nor implements an interface declaring the method");
			}
		}
		ReflectionUtils.makeAccessible(invocable);
		return invocable;
	}

	private static @Nullable Method interfaceMethod(Method method, Class<?> beanClass) {
		for (Class<?> candidate : ClassUtils.getAllInterfacesForClassAsSet(beanClass)) {
			try {
				return candidate.getMethod(method.getName(), method.getParameterTypes());
			}
			catch (NoSuchMethodException ex) {
				// try the next interface
			}
		}
		return null;
	}

	private static final class DefaultGenerator {

		static final JsonSchemaGenerator INSTANCE = new JsonSchemaGenerator();

	}

	/**
	 * Builds a {@link MethodToolCallback}.
	 */
	public static final class Builder {

		private final Object bean;

		private final Method method;

		private @Nullable Class<?> targetClass;

		private @Nullable String source;

		private @Nullable JsonMapper mapper;

		private @Nullable JsonSchemaGenerator schemaGenerator;

		private Builder(Object bean, Method method) {
			this.bean = Objects.requireNonNull(bean, "'bean' must not be null");
			this.method = Objects.requireNonNull(method, "'method' must not be null");
		}

		/**
		 * Set the class the method was found on, when the bean is a proxy; it resolves
		 * generic parameter types and names the tool's origin. Defaults to the bean's
		 * class.
		 * @param targetClass the target class
		 * @return this builder
		 */
		public Builder targetClass(Class<?> targetClass) {
			this.targetClass = Objects.requireNonNull(targetClass, "'targetClass' must not be null");
			return this;
		}

		/**
		 * Set where the tool comes from, for error messages, e.g. {@code bean 'weather'}.
		 * @param source the source description
		 * @return this builder
		 */
		public Builder source(String source) {
			this.source = Objects.requireNonNull(source, "'source' must not be null");
			return this;
		}

		/**
		 * Set the mapper arguments are bound and results written with. Defaults to
		 * {@link AgentJson#mapper()}.
		 * @param mapper the mapper
		 * @return this builder
		 */
		public Builder mapper(JsonMapper mapper) {
			this.mapper = Objects.requireNonNull(mapper, "'mapper' must not be null");
			return this;
		}

		/**
		 * Set the schema generator. Defaults to one for the {@link #mapper(JsonMapper)
		 * mapper}.
		 * @param schemaGenerator the generator
		 * @return this builder
		 */
		public Builder schemaGenerator(JsonSchemaGenerator schemaGenerator) {
			this.schemaGenerator = Objects.requireNonNull(schemaGenerator, "'schemaGenerator' must not be null");
			return this;
		}

		/**
		 * Build the callback.
		 * @return the callback
		 * @throws ToolDefinitionException naming the method if it is not a valid tool
		 */
		public MethodToolCallback build() {
			return new MethodToolCallback(this);
		}

	}

}
