package dev.agcore.tool.method;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.agcore.Tool;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolDefinitionException;
import dev.agcore.tool.binding.ToolBinding;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Finds the {@link Tool @Tool} methods of an object and turns each into a
 * {@link MethodToolCallback}. Methods are found on the target class, its superclasses
 * and its interfaces; the annotation may sit on any declaration the method overrides.
 * <p>
 * For a Spring proxy, pass the proxy as the bean and the ultimate target class (for
 * example from {@code AopUtils.getTargetClass}): a CGLIB subclass is called directly, a
 * JDK proxy through the interface method it implements.
 */
public final class MethodTools {

	private MethodTools() {
	}

	/**
	 * Return the tools of an object, found on its own class.
	 * @param bean the object declaring {@code @Tool} methods
	 * @return the tools, sorted by name; empty if there are none
	 * @throws ToolDefinitionException naming the first invalid method
	 */
	public static List<ToolCallback> from(Object bean) {
		Objects.requireNonNull(bean, "'bean' must not be null");
		return create(bean, bean.getClass(), null, ToolBinding.defaults());
	}

	/**
	 * Return the tools of an object, found on a given class.
	 * @param bean the object to call the methods on, possibly a proxy
	 * @param targetClass the class to look for {@code @Tool} methods on
	 * @param source where the bean comes from, for messages, e.g. {@code bean 'weather'}
	 * @return the tools, sorted by name; empty if there are none
	 * @throws ToolDefinitionException naming the first invalid method
	 */
	public static List<ToolCallback> from(Object bean, Class<?> targetClass, String source) {
		Objects.requireNonNull(source, "'source' must not be null");
		return create(bean, targetClass, source, ToolBinding.defaults());
	}

	/**
	 * Return the tools of an object, binding arguments with a given mapper.
	 * @param bean the object to call the methods on, possibly a proxy
	 * @param targetClass the class to look for {@code @Tool} methods on
	 * @param source where the bean comes from, for messages, or {@code null}
	 * @param mapper the mapper arguments are bound and results written with
	 * @return the tools, sorted by name; empty if there are none
	 * @throws ToolDefinitionException naming the first invalid method
	 */
	public static List<ToolCallback> from(Object bean, Class<?> targetClass, @Nullable String source,
			JsonMapper mapper) {
		Objects.requireNonNull(mapper, "'mapper' must not be null");
		return create(bean, targetClass, source, ToolBinding.of(mapper));
	}

	/**
	 * Return the tools of an object, binding arguments as a given {@link ToolBinding}
	 * says (mapper, schema generator, validator). Create the binding once and share it.
	 * @param bean the object to call the methods on, possibly a proxy
	 * @param targetClass the class to look for {@code @Tool} methods on
	 * @param source where the bean comes from, for messages, or {@code null}
	 * @param binding how arguments are bound and validated
	 * @return the tools, sorted by name; empty if there are none
	 * @throws ToolDefinitionException naming the first invalid method
	 */
	public static List<ToolCallback> from(Object bean, Class<?> targetClass, @Nullable String source,
			ToolBinding binding) {
		Objects.requireNonNull(binding, "'binding' must not be null");
		return create(bean, targetClass, source, binding);
	}

	private static List<ToolCallback> create(Object bean, Class<?> targetClass, @Nullable String source,
			ToolBinding binding) {
		Objects.requireNonNull(bean, "'bean' must not be null");
		Objects.requireNonNull(targetClass, "'targetClass' must not be null");
		Map<Method, Tool> methods = MethodIntrospector.selectMethods(targetClass,
				(MethodIntrospector.MetadataLookup<Tool>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, Tool.class));
		List<MethodToolCallback> tools = new ArrayList<>(methods.size());
		for (Method method : methods.keySet()) {
			// one binding for all methods of the bean: building its generator is the costly part
			MethodToolCallback.Builder builder = MethodToolCallback.builder(bean, method)
				.targetClass(targetClass)
				.binding(binding);
			if (source != null) {
				builder.source(source);
			}
			tools.add(builder.build());
		}
		// reflection order is unspecified; keep the result stable
		tools.sort(Comparator.comparing((MethodToolCallback tool) -> tool.spec().name())
			.thenComparing(MethodToolCallback::source));
		checkUniqueNames(tools);
		return List.copyOf(tools);
	}

	private static void checkUniqueNames(List<MethodToolCallback> tools) {
		Map<String, MethodToolCallback> byName = new HashMap<>();
		for (MethodToolCallback tool : tools) {
			MethodToolCallback previous = byName.putIfAbsent(tool.spec().name(), tool);
			if (previous != null) {
				throw new ToolDefinitionException("Duplicate tool name '" + tool.spec().name() + "': declared by "
						+ previous.source() + " and by " + tool.source() + ". Give one of them another name.");
			}
		}
	}

}
