package dev.agcore.autoconfigure.middleware;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.support.ContextBeans;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.MiddlewareException;
import dev.agcore.middleware.annotation.AnnotatedMiddleware;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;

/**
 * The middleware beans of an application context: every {@link AgentMiddleware} bean and
 * every singleton with hook-annotated methods, in bean order ({@code @Order} on the
 * {@code @Bean} method or the class, {@link org.springframework.core.Ordered}), ties in
 * registration order, as {@code ObjectProvider.orderedStream()} sorts. Bean types are
 * checked before any bean is created, so beans without hooks are not initialized early;
 * the targets of scoped proxies are skipped, as their proxies stand for them.
 */
final class MiddlewareBeans {

	/** The middleware of each middleware bean, in bean order. */
	private final Map<String, List<AgentMiddleware>> byBean;

	private MiddlewareBeans(Map<String, List<AgentMiddleware>> byBean) {
		this.byBean = Collections.unmodifiableMap(byBean);
	}

	static MiddlewareBeans collect(ConfigurableListableBeanFactory beanFactory) {
		Map<String, Object> beans = new LinkedHashMap<>();
		Map<String, List<AgentMiddleware>> middleware = new LinkedHashMap<>();
		for (String name : ContextBeans.beanNamesForType(beanFactory, AgentMiddleware.class, true, true)) {
			AgentMiddleware bean = beanFactory.getBean(name, AgentMiddleware.class);
			beans.put(name, bean);
			middleware.put(name, List.of(bean));
		}
		for (String name : ContextBeans.beanNamesForType(beanFactory, Object.class, false, false)) {
			if (!beans.containsKey(name)) {
				Object bean = hookBean(beanFactory, name);
				if (bean != null) {
					beans.put(name, bean);
					middleware.put(name, annotated(bean, name));
				}
			}
		}
		Map<String, List<AgentMiddleware>> ordered = new LinkedHashMap<>();
		for (String name : sort(beanFactory, beans)) {
			ordered.put(name, middleware.get(name));
		}
		return new MiddlewareBeans(ordered);
	}

	/**
	 * Return the middleware of every middleware bean, in bean order.
	 * @return the middleware
	 */
	List<AgentMiddleware> all() {
		List<AgentMiddleware> all = new ArrayList<>();
		this.byBean.values().forEach(all::addAll);
		return all;
	}

	/**
	 * Return the middleware of the named beans, in the order given.
	 * @param property the property that lists the names, for errors
	 * @param names the bean names
	 * @param beanFactory to tell a bean that is no middleware from an unknown name
	 * @return the middleware
	 */
	List<AgentMiddleware> select(String property, List<String> names, ConfigurableListableBeanFactory beanFactory) {
		List<AgentMiddleware> selected = new ArrayList<>();
		for (String name : new LinkedHashSet<>(names)) {
			List<AgentMiddleware> middleware = this.byBean.get(name.strip());
			if (middleware == null) {
				String problem = beanFactory.containsBean(name.strip())
						? "bean '" + name + "' is no AgentMiddleware and has no hook-annotated methods"
						: "unknown middleware bean '" + name + "'";
				throw new AgentConfigurationException(property + ": " + problem + "; middleware beans: " + names(),
						"Use the name of an AgentMiddleware bean or of a bean with @BeforeAgent, @AfterAgent, "
								+ "@BeforeModel, @AfterModel, @WrapModelCall, @WrapToolCall or @DynamicPrompt methods, "
								+ "or remove " + property + " to use every middleware bean.");
			}
			selected.addAll(middleware);
		}
		return selected;
	}

	Set<String> names() {
		return this.byBean.keySet();
	}

	/** Return the bean if it has hook methods, creating it only when its type says so. */
	private static @Nullable Object hookBean(ConfigurableListableBeanFactory beanFactory, String name) {
		// an AgentMiddleware bean is used as such, never also scanned for annotations
		return ContextBeans.beanIfMatching(beanFactory, name,
				(type) -> !AgentMiddleware.class.isAssignableFrom(type) && hasHooks(type, name));
	}

	private static boolean hasHooks(Class<?> type, String name) {
		try {
			return AnnotatedMiddleware.hasHooks(type);
		}
		catch (MiddlewareException ex) {
			throw invalid(name, ex);
		}
	}

	private static List<AgentMiddleware> annotated(Object bean, String name) {
		try {
			return AnnotatedMiddleware.from(bean, AopProxyUtils.ultimateTargetClass(bean), "bean '" + name + "'");
		}
		catch (MiddlewareException ex) {
			throw invalid(name, ex);
		}
	}

	private static AgentConfigurationException invalid(String name, MiddlewareException ex) {
		return new AgentConfigurationException("Invalid middleware hook in bean '" + name + "': " + ex.getMessage(),
				"Fix the method's signature, or remove its hook annotation.", ex);
	}

	/**
	 * Sort bean names as {@code orderedStream()} would: an {@code @Order} on the factory
	 * method first, then the bean's own order, ties in registration order.
	 */
	private static List<String> sort(ConfigurableListableBeanFactory beanFactory, Map<String, Object> beans) {
		Map<String, Integer> registration = new LinkedHashMap<>();
		String[] definitionNames = beanFactory.getBeanDefinitionNames();
		for (int i = 0; i < definitionNames.length; i++) {
			registration.put(definitionNames[i], i);
		}
		Map<Object, String> namesByBean = new IdentityHashMap<>();
		beans.forEach((name, bean) -> namesByBean.put(bean, name));
		Comparator<Object> order = AnnotationAwareOrderComparator.INSTANCE
			.withSourceProvider((bean) -> orderSources(beanFactory, namesByBean.get(bean), bean));
		List<String> names = new ArrayList<>(beans.keySet());
		// manually registered singletons have no definition: they come last, as in getBeanNamesForType
		names.sort(Comparator.comparingInt((name) -> registration.getOrDefault(name, Integer.MAX_VALUE)));
		names.sort((first, second) -> order.compare(beans.get(first), beans.get(second)));
		return names;
	}

	private static Object @Nullable [] orderSources(ConfigurableListableBeanFactory beanFactory, @Nullable String name,
			Object bean) {
		if (name == null || !beanFactory.containsBeanDefinition(name)) {
			return null;
		}
		BeanDefinition definition = beanFactory.getMergedBeanDefinition(name);
		if (!(definition instanceof RootBeanDefinition root)) {
			return null;
		}
		List<Object> sources = new ArrayList<>(2);
		Method factoryMethod = root.getResolvedFactoryMethod();
		if (factoryMethod != null) {
			sources.add(factoryMethod);
		}
		Class<?> targetType = root.getTargetType();
		if (targetType != null && targetType != bean.getClass()) {
			sources.add(targetType);
		}
		return sources.toArray();
	}

}
