package dev.agcore.autoconfigure.chain;

import java.lang.reflect.Method;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.support.ContextBeans;
import dev.agcore.chain.Chain;
import dev.agcore.chain.ChainRegistry;
import dev.agcore.chain.Runnable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;

/**
 * Registers the chains of an application context once all its singletons exist: every
 * {@link Runnable} bean, under its bean name, and every {@link Chain @Chain} method of a
 * singleton bean. Registering late lets a bean with chains use the registry itself; a
 * chain is looked up when it is used, not while beans are created. A method of the wrong
 * shape, or a name taken twice, fails startup naming the bean and the method.
 */
final class ChainBeans implements SmartInitializingSingleton {

	private static final String METHOD_ACTION = "Give the @Chain method one parameter, the input, and a return "
			+ "value (a value, a Mono or a Flux<String>), make it public, or remove the annotation.";

	private final ConfigurableListableBeanFactory beanFactory;

	private final ObjectProvider<ChainRegistry> registry;

	private final Supplier<JsonMapper> mapper;

	ChainBeans(ConfigurableListableBeanFactory beanFactory, ObjectProvider<ChainRegistry> registry,
			Supplier<JsonMapper> mapper) {
		this.beanFactory = beanFactory;
		this.registry = registry;
		this.mapper = mapper;
	}

	@Override
	public void afterSingletonsInstantiated() {
		ChainRegistry registry = this.registry.getObject();
		Map<String, String> sources = new LinkedHashMap<>();
		for (String name : registry.names()) {
			sources.put(name, "the ChainRegistry bean itself");
		}
		for (String beanName : ContextBeans.beanNamesForType(this.beanFactory, Runnable.class, false, true)) {
			Runnable<?, ?> chain = this.beanFactory.getBean(beanName, Runnable.class);
			register(registry, sources, beanName, chain, "bean '" + beanName + "'");
		}
		for (String beanName : ContextBeans.beanNamesForType(this.beanFactory, Object.class, false, false)) {
			Object bean = ContextBeans.beanIfMatching(this.beanFactory, beanName, ChainBeans::hasChainMethods);
			if (bean != null) {
				registerMethods(registry, sources, beanName, bean);
			}
		}
	}

	private void registerMethods(ChainRegistry registry, Map<String, String> sources, String beanName, Object bean) {
		Map<Method, Chain> methods = chainMethods(AopProxyUtils.ultimateTargetClass(bean));
		// reflection order is unspecified; keep registration, and so failures, stable
		for (Method method : methods.keySet().stream().sorted(Comparator.comparing(ChainMethods::describe)).toList()) {
			String source = "bean '" + beanName + "' method " + ChainMethods.describe(method);
			Runnable<Object, Object> chain;
			String name;
			try {
				name = ChainMethods.name(method, methods.get(method));
				chain = ChainMethods.runnable(bean, method, name, this.mapper);
			}
			catch (IllegalArgumentException ex) {
				throw new AgentConfigurationException(
						"Bean '" + beanName + "' declares an invalid chain: " + ChainMethods.describe(method) + " "
								+ ex.getMessage(),
						METHOD_ACTION, ex);
			}
			register(registry, sources, name, chain, source);
		}
	}

	private static void register(ChainRegistry registry, Map<String, String> sources, String name,
			Runnable<?, ?> chain, String source) {
		String previous = sources.putIfAbsent(name, source);
		if (previous != null) {
			throw new AgentConfigurationException(
					"Duplicate chain name '" + name + "': declared by " + previous + " and by " + source,
					"Give one of the chains another name, e.g. with @Chain(\"...\"), or remove one of them.");
		}
		registry.register(name, chain);
	}

	private static Map<Method, Chain> chainMethods(Class<?> type) {
		return MethodIntrospector.selectMethods(type,
				(MethodIntrospector.MetadataLookup<Chain>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, Chain.class));
	}

	private static boolean hasChainMethods(Class<?> type) {
		return AnnotationUtils.isCandidateClass(type, Chain.class) && !chainMethods(type).isEmpty();
	}

}
