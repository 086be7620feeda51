package dev.agcore.autoconfigure.tool;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agcore.Tool;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.support.ContextBeans;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolDefinitionException;
import dev.agcore.tool.ToolRegistry;
import dev.agcore.tool.binding.ToolBinding;
import dev.agcore.tool.method.MethodTools;
import dev.agcore.tool.typed.TypedTool;
import dev.agcore.tool.typed.TypedTools;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;

/**
 * Collects the tools of an application context: {@link ToolCallback} beans,
 * {@link TypedTool} beans and the {@link Tool @Tool} methods of any singleton bean. Bean
 * types are checked for {@code @Tool} methods before any bean is created, so beans
 * without tools are not initialized early; the targets of scoped proxies are skipped, as
 * their proxies stand for them.
 */
final class ToolBeans {

	private final ConfigurableListableBeanFactory beanFactory;

	private final ToolBinding binding;

	ToolBeans(ConfigurableListableBeanFactory beanFactory, ToolBinding binding) {
		this.beanFactory = beanFactory;
		this.binding = binding;
	}

	ToolRegistry registry() {
		Map<String, ToolCallback> byName = new LinkedHashMap<>();
		Map<String, String> sources = new LinkedHashMap<>();
		for (String beanName : ContextBeans.beanNamesForType(this.beanFactory, ToolCallback.class, true, true)) {
			ToolCallback tool = this.beanFactory.getBean(beanName, ToolCallback.class);
			add(byName, sources, tool, "bean '" + beanName + "'");
		}
		for (String beanName : ContextBeans.beanNamesForType(this.beanFactory, TypedTool.class, true, true)) {
			ToolCallback tool = typedTool(beanName);
			add(byName, sources, tool, tool.source());
		}
		for (String beanName : ContextBeans.beanNamesForType(this.beanFactory, Object.class, false, false)) {
			for (ToolCallback tool : methodTools(beanName)) {
				add(byName, sources, tool, tool.source());
			}
		}
		return ToolRegistry.of(byName.values());
	}

	private List<ToolCallback> methodTools(String beanName) {
		Object bean = ContextBeans.beanIfMatching(this.beanFactory, beanName, ToolBeans::hasToolMethods);
		if (bean == null) {
			return List.of();
		}
		try {
			return MethodTools.from(bean, AopProxyUtils.ultimateTargetClass(bean), "bean '" + beanName + "'",
					this.binding);
		}
		catch (ToolDefinitionException ex) {
			throw invalid(beanName, ex, "Fix the @Tool method as the message says, or remove the annotation.");
		}
	}

	private ToolCallback typedTool(String beanName) {
		TypedTool<?> tool = this.beanFactory.getBean(beanName, TypedTool.class);
		try {
			return TypedTools.from(tool, this.binding, "bean '" + beanName + "'");
		}
		catch (ToolDefinitionException ex) {
			throw invalid(beanName, ex, "Fix the TypedTool as the message says, or remove the bean.");
		}
	}

	private static AgentConfigurationException invalid(String beanName, ToolDefinitionException ex, String action) {
		// the core's message names the class and method (or typed tool)
		return new AgentConfigurationException("Bean '" + beanName + "' declares an invalid tool. " + ex.getMessage(),
				action, ex);
	}

	private static boolean hasToolMethods(Class<?> type) {
		return AnnotationUtils.isCandidateClass(type, Tool.class)
				&& !MethodIntrospector
					.selectMethods(type,
							(MethodIntrospector.MetadataLookup<Tool>) (method) -> AnnotatedElementUtils
								.findMergedAnnotation(method, Tool.class))
					.isEmpty();
	}

	private static void add(Map<String, ToolCallback> byName, Map<String, String> sources, ToolCallback tool,
			String source) {
		String name = tool.spec().name();
		String previous = sources.putIfAbsent(name, source);
		if (previous != null) {
			throw new AgentConfigurationException(
					"Duplicate tool name '" + name + "': declared by " + previous + " and by " + source,
					"Give one of the tools another name, e.g. with @Tool(name = \"...\"), or remove one of the beans.");
		}
		byName.put(name, tool);
	}

}
