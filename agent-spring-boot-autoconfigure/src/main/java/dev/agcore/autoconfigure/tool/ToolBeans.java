package dev.agcore.autoconfigure.tool;

import java.lang.reflect.Proxy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agcore.Tool;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolDefinitionException;
import dev.agcore.tool.ToolRegistry;
import dev.agcore.tool.method.MethodTools;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.scope.ScopedProxyUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;

/**
 * Collects the tools of an application context. Bean types are checked for
 * {@link Tool @Tool} methods before any bean is created, so beans without tools are
 * never initialized early.
 */
final class ToolBeans {

	private final ListableBeanFactory beanFactory;

	ToolBeans(ListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	ToolRegistry registry() {
		Map<String, ToolCallback> byName = new LinkedHashMap<>();
		Map<String, String> sources = new LinkedHashMap<>();
		for (String beanName : this.beanFactory.getBeanNamesForType(ToolCallback.class)) {
			ToolCallback tool = this.beanFactory.getBean(beanName, ToolCallback.class);
			add(byName, sources, tool, "bean '" + beanName + "'");
		}
		for (String beanName : this.beanFactory.getBeanNamesForType(Object.class, false, false)) {
			for (ToolCallback tool : methodTools(beanName)) {
				add(byName, sources, tool, tool.source());
			}
		}
		return ToolRegistry.of(byName.values());
	}

	private List<ToolCallback> methodTools(String beanName) {
		if (ScopedProxyUtils.isScopedTarget(beanName)) {
			return List.of();
		}
		Class<?> type = this.beanFactory.getType(beanName, false);
		if (type == null) {
			return List.of();
		}
		// a JDK proxy's class says nothing about its target: ask the instance
		if (!Proxy.isProxyClass(type) && !hasToolMethods(ClassUtils.getUserClass(type))) {
			return List.of();
		}
		Object bean = this.beanFactory.getBean(beanName);
		Class<?> targetClass = AopProxyUtils.ultimateTargetClass(bean);
		if (!hasToolMethods(targetClass)) {
			return List.of();
		}
		try {
			return MethodTools.from(bean, targetClass, "bean '" + beanName + "'");
		}
		catch (ToolDefinitionException ex) {
			throw new AgentConfigurationException("Invalid @Tool method in bean '" + beanName + "': " + ex.getMessage(),
					"Fix the @Tool method, or remove the annotation.", ex);
		}
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
