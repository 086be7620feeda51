package dev.agcore.tool.method;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import dev.agcore.Tool;
import dev.agcore.json.AgentJson;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolDefinitionException;
import dev.agcore.tool.ToolMetadata;
import dev.agcore.tool.ToolSpec;
import dev.agcore.tool.binding.ArgumentValidator;
import dev.agcore.tool.binding.ArgumentViolation;
import dev.agcore.tool.binding.ToolBinding;
import dev.agcore.tool.binding.ToolDeclarations;
import dev.agcore.tool.schema.JsonSchemaGenerator;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * A {@link ToolCallback} that runs one {@link Tool @Tool} method of one object. The spec,
 * metadata, schema and argument readers are built once, when the callback is created;
 * invalid declarations fail then with a {@link ToolDefinitionException} naming the
 * method.
 * <p>
 * Arguments are bound with a Jackson {@link JsonMapper} to the parameters' generic
 * types, then validated (Bean Validation, when available); injected parameters
 * ({@link ToolContext}, {@code SessionMemory}, {@code @ToolCallId String}...) receive the
 * call's runtime values. The result is returned as is if it is a {@link CharSequence},
 * as {@code ""} if the method is {@code void} or returns {@code null}, and as JSON
 * otherwise. Exceptions thrown by the method propagate unwrapped. Static methods are
 * supported and called without a target.
 */
public final class MethodToolCallback implements ToolCallback {

	private final ToolSpec spec;

	private final ToolMetadata metadata;

	private final @Nullable Object target;

	private final Method method;

	private final ArgumentBinder binder;

	private final ArgumentValidator validator;

	private final List<@Nullable String> parameterNames;

	private final JsonMapper mapper;

	private final String source;

	private MethodToolCallback(Builder builder) {
		Class<?> targetClass = ClassUtils
			.getUserClass((builder.targetClass != null) ? builder.targetClass : builder.bean.getClass());
		String where = targetClass.getName() + "#" + builder.method.getName();
		this.source = (builder.source != null) ? builder.source + " (" + where + ")" : where;
		ToolBinding binding = builder.binding();
		this.mapper = binding.mapper();
		try {
			Tool tool = AnnotatedElementUtils.findMergedAnnotation(builder.method, Tool.class);
			if (tool == null) {
				throw new ToolDefinitionException("the method is not annotated with @Tool");
			}
			MethodSignature signature = MethodSignature.of(builder.method, targetClass, binding);
			this.spec = new ToolSpec(name(tool, builder.method), description(tool, builder.method), signature.schema());
			this.metadata = metadata(tool, signature);
			this.method = invocableMethod(builder.method, builder.bean);
			this.target = Modifier.isStatic(this.method.getModifiers()) ? null : builder.bean;
			this.validator = signature.raw() ? ArgumentValidator.NONE : binding.validator();
			int count = builder.method.getParameterCount();
			this.parameterNames = signature.modelNames(count);
			this.binder = new ArgumentBinder(count, signature.parameters(), signature.injections(),
					signature.schema(), this.mapper);
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
	public ToolMetadata metadata() {
		return this.metadata;
	}

	@Override
	public String call(String arguments, ToolContext context) throws Exception {
		Objects.requireNonNull(context, "'context' must not be null");
		@Nullable Object[] bound = this.binder.bind(arguments, context);
		ArgumentViolation.throwIfAny(
				this.validator.validateParameters(this.target, this.method, bound, this.parameterNames));
		return ToolDeclarations.resultText(invoke(bound), this.mapper);
	}

	@Override
	public String source() {
		return this.source;
	}

	@Override
	public String toString() {
		return "MethodToolCallback '" + this.spec.name() + "' of " + this.source;
	}

	private @Nullable Object invoke(@Nullable Object[] arguments) throws Exception {
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

	private static ToolMetadata metadata(Tool tool, MethodSignature signature) {
		String[] secrets = tool.secrets();
		if (secrets.length == 1 && Tool.SECRETS_UNDECLARED.equals(secrets[0])) {
			// not secret-eligible; an application that resolves secrets refuses to start with it
			return new ToolMetadata(ToolDeclarations.permission(tool.permission()), tool.category(),
					ToolDeclarations.timeout(tool.timeout()), tool.returnDirect(), Set.of(), false);
		}
		// a raw tool's parameters are whatever the model sends: any name may be declared
		Set<String> eligible = signature.raw() ? Set.of(secrets)
				: ToolDeclarations.secretParameters(List.of(secrets), signature.parameterNames());
		return new ToolMetadata(ToolDeclarations.permission(tool.permission()), tool.category(),
				ToolDeclarations.timeout(tool.timeout()), tool.returnDirect(), eligible);
	}

	private static String name(Tool tool, Method method) {
		return ToolDeclarations.checkName(StringUtils.hasText(tool.name()) ? tool.name() : method.getName());
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

	/**
	 * Builds a {@link MethodToolCallback}.
	 */
	public static final class Builder {

		private final Object bean;

		private final Method method;

		private @Nullable Class<?> targetClass;

		private @Nullable String source;

		private @Nullable ToolBinding binding;

		private @Nullable JsonMapper mapper;

		private @Nullable JsonSchemaGenerator schemaGenerator;

		private @Nullable ArgumentValidator validator;

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
		 * Set how arguments are bound: mapper, schema generator and validator. Defaults
		 * to {@link ToolBinding#defaults()}; the settings below override parts of it.
		 * @param binding the binding
		 * @return this builder
		 */
		public Builder binding(ToolBinding binding) {
			this.binding = Objects.requireNonNull(binding, "'binding' must not be null");
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
		 * Set the validator applied to bound arguments. Defaults to Bean Validation when
		 * it is on the class path.
		 * @param validator the validator, or {@link ArgumentValidator#NONE}
		 * @return this builder
		 */
		public Builder validator(ArgumentValidator validator) {
			this.validator = Objects.requireNonNull(validator, "'validator' must not be null");
			return this;
		}

		ToolBinding binding() {
			ToolBinding result = (this.binding != null) ? this.binding
					: (this.mapper != null) ? ToolBinding.of(this.mapper) : ToolBinding.defaults();
			if (this.mapper != null && this.binding != null && result.mapper() != this.mapper) {
				result = ToolBinding.of(this.mapper).withValidator(result.validator());
			}
			if (this.schemaGenerator != null) {
				result = result.withSchemaGenerator(this.schemaGenerator);
			}
			return (this.validator != null) ? result.withValidator(this.validator) : result;
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
