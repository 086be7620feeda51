package dev.agcore.tool.method;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

import dev.agcore.RawArguments;
import dev.agcore.tool.ToolDefinitionException;
import dev.agcore.tool.binding.ArgumentValidator;
import dev.agcore.tool.binding.ToolBinding;
import dev.agcore.tool.binding.ToolDeclarations;
import dev.agcore.tool.schema.ToolParameter;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.core.GenericTypeResolver;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.AnnotatedMethod;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * What a {@code @Tool} method's signature means: which parameters the model fills (and
 * the schema it is sent for them), which the runtime injects, and whether the tool takes
 * its arguments raw. Invalid declarations fail here, when the tool is created.
 *
 * @param parameters the parameters the model fills
 * @param injections the injected parameters, by index
 * @param schema the arguments schema sent to the model
 * @param raw whether a {@code @RawArguments} parameter takes the arguments untouched
 */
record MethodSignature(List<ToolParameter> parameters, Map<Integer, Injection> injections, ObjectNode schema,
		boolean raw) {

	// injected once per call; a second parameter of these kinds is a mistake
	private static final Set<String> SINGLE_KINDS = Set.of("ToolContext", "SessionMemory", "LongTermStore",
			"Principal", "@RawArguments");

	static MethodSignature of(Method method, Class<?> targetClass, ToolBinding binding) {
		checkReturnType(method);
		Class<?> userClass = ClassUtils.getUserClass(targetClass);
		MethodParameter[] merged = new AnnotatedMethod(method).getMethodParameters();
		Parameter[] declared = method.getParameters();
		Map<Integer, Injection> injections = new LinkedHashMap<>();
		Map<String, Integer> kinds = new LinkedHashMap<>();
		for (int i = 0; i < declared.length; i++) {
			Type type = GenericTypeResolver.resolveType(declared[i].getParameterizedType(), userClass);
			Injection injection = Injection.of(merged[i], type, binding.mapper());
			if (injection != null) {
				injections.put(i, injection);
				kinds.merge(injection.kind(), 1, Integer::sum);
			}
		}
		kinds.forEach((kind, count) -> {
			if (count > 1 && SINGLE_KINDS.contains(kind)) {
				throw new ToolDefinitionException("at most one " + kind + " parameter is allowed, found " + count);
			}
		});
		List<ToolParameter> parameters = ToolParameter.forMethod(method, targetClass);
		boolean raw = kinds.containsKey("@RawArguments");
		if (raw && !parameters.isEmpty()) {
			throw new ToolDefinitionException("a @RawArguments tool receives all arguments in that one parameter;"
					+ " its other parameters can only be injected values, found '" + parameters.get(0).name() + "'");
		}
		ObjectNode schema = raw ? rawSchema(merged, binding)
				: binding.schemaGenerator().schemaForParameters(parameters);
		if (Modifier.isStatic(method.getModifiers()) && binding.validator() != ArgumentValidator.NONE
				&& hasConstraints(merged)) {
			throw new ToolDefinitionException("Bean Validation does not apply to static methods; make the method "
					+ "an instance method or remove its constraints");
		}
		return new MethodSignature(parameters, injections, schema, raw);
	}

	/**
	 * Return the name the model knows each parameter by, {@code null} for injected ones.
	 * @param parameterCount the number of parameters of the method
	 * @return the names, in parameter order
	 */
	List<@Nullable String> modelNames(int parameterCount) {
		@Nullable String[] names = new String[parameterCount];
		for (ToolParameter parameter : this.parameters) {
			names[parameter.index()] = parameter.name();
		}
		return Arrays.asList(names);
	}

	Set<String> parameterNames() {
		return ToolDeclarations.parameterNames(this.schema);
	}

	private static void checkReturnType(Method method) {
		Class<?> returnType = method.getReturnType();
		if (Future.class.isAssignableFrom(returnType) || CompletionStage.class.isAssignableFrom(returnType)
				|| Publisher.class.isAssignableFrom(returnType)) {
			throw new ToolDefinitionException("tools run synchronously; return the value instead of a "
					+ returnType.getSimpleName());
		}
	}

	private static ObjectNode rawSchema(MethodParameter[] parameters, ToolBinding binding) {
		String declared = "";
		for (MethodParameter parameter : parameters) {
			RawArguments raw = parameter.getParameterAnnotation(RawArguments.class);
			if (raw != null) {
				declared = raw.schema();
			}
		}
		if (!StringUtils.hasText(declared)) {
			ObjectNode freeForm = binding.mapper().createObjectNode();
			freeForm.put("type", "object");
			freeForm.put("additionalProperties", true);
			return freeForm;
		}
		JsonNode schema;
		try {
			schema = binding.mapper().readTree(declared);
		}
		catch (JacksonException ex) {
			throw new ToolDefinitionException("@RawArguments schema is not valid JSON: " + ex.getOriginalMessage(), ex);
		}
		if (!(schema instanceof ObjectNode object) || !"object".equals(object.path("type").asString(""))) {
			throw new ToolDefinitionException("@RawArguments schema must be an object schema, {\"type\": \"object\", ...}");
		}
		return object;
	}

	private static boolean hasConstraints(MethodParameter[] parameters) {
		for (MethodParameter parameter : parameters) {
			for (Annotation annotation : parameter.getParameterAnnotations()) {
				Class<? extends Annotation> type = annotation.annotationType();
				if (type.getName().equals("jakarta.validation.Valid")) {
					return true;
				}
				for (Annotation meta : type.getAnnotations()) {
					if (meta.annotationType().getName().equals("jakarta.validation.Constraint")) {
						return true;
					}
				}
			}
		}
		return false;
	}

}
