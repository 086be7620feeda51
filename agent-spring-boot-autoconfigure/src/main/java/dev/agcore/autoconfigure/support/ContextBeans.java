package dev.agcore.autoconfigure.support;

import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.scope.ScopedProxyUtils;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.BeanCurrentlyInCreationException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Finds the beans of an application context that the auto-configurations collect: by
 * type, and by what their class declares (such as {@code @Tool} methods).
 *
 * @since 0.1.0
 */
public final class ContextBeans {

	private static final Log logger = LogFactory.getLog(ContextBeans.class);

	// a bean declared as one of these libraries' types is infrastructure, never a tool source
	private static final List<String> FRAMEWORK_PACKAGES = List.of("org.springframework.", "java.", "javax.",
			"jakarta.", "reactor.", "io.micrometer.", "io.netty.", "tools.jackson.", "com.fasterxml.jackson.");

	private ContextBeans() {
	}

	/**
	 * Return the names of the beans of the given type, without the targets of scoped
	 * proxies: the proxy stands for its target, which would otherwise be seen twice.
	 * @param beanFactory the bean factory
	 * @param type the type to match
	 * @param includeNonSingletons whether to include beans of other scopes
	 * @param allowEagerInit whether factory beans may be initialized to find their type
	 * @return the bean names
	 * @see ListableBeanFactory#getBeanNamesForType(Class, boolean, boolean)
	 */
	public static List<String> beanNamesForType(ListableBeanFactory beanFactory, Class<?> type,
			boolean includeNonSingletons, boolean allowEagerInit) {
		return Arrays.stream(beanFactory.getBeanNamesForType(type, includeNonSingletons, allowEagerInit))
			.filter((name) -> !ScopedProxyUtils.isScopedTarget(name))
			.toList();
	}

	/**
	 * Return the bean of the given name if its class matches. The class is predicted
	 * from the bean definition where it can be, so beans that do not match are not
	 * created early. A bean whose predicted type is an interface or an abstract class
	 * (such as a {@code @Bean} method declared to return an interface) is created to
	 * look at its class if it is a non-lazy singleton, which would be created anyway;
	 * lazy and non-singleton beans of such a type are skipped, and so are beans declared
	 * as a framework type (Spring, the JDK, Reactor...), which are never tool sources and
	 * must not be created out of their framework's order.
	 * @param beanFactory the bean factory
	 * @param name the bean name
	 * @param matches whether a bean class matches, given the user class or, for a
	 * proxy, the ultimate target class
	 * @return the bean, or {@code null} if it does not match
	 */
	public static @Nullable Object beanIfMatching(ConfigurableListableBeanFactory beanFactory, String name,
			Predicate<Class<?>> matches) {
		if (ScopedProxyUtils.isScopedTarget(name)) {
			return null;
		}
		// no reflection over the methods of the framework's own beans, most of a context
		Predicate<Class<?>> candidate = (type) -> !isFrameworkType(type) && matches.test(type);
		Class<?> type = beanFactory.getType(name, false);
		if (type == null) {
			return null;
		}
		Object bean;
		if (Proxy.isProxyClass(type)) {
			// a JDK proxy's class says nothing about its target: ask the instance
			bean = beanFactory.getBean(name);
		}
		else if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
			// the declared type until the bean exists, not its class
			if (beanFactory.containsSingleton(name)) {
				bean = beanFactory.getBean(name);
			}
			else if (!isEagerSingleton(beanFactory, name) || isFrameworkType(type)) {
				// creating Spring's own beans early (e.g. WebFlux's httpHandler while the
				// dispatcher collects its handler mappings) silently drops routes
				return null;
			}
			else {
				bean = createdIfPossible(beanFactory, name);
			}
			if (bean == null) {
				return null;
			}
		}
		else if (candidate.test(ClassUtils.getUserClass(type))) {
			bean = beanFactory.getBean(name);
		}
		else {
			return null;
		}
		return candidate.test(AopProxyUtils.ultimateTargetClass(bean)) ? bean : null;
	}

	/**
	 * Return whether a class belongs to a framework or library (Spring, the JDK, Reactor,
	 * Micrometer, Netty, Jackson) and so declares none of agcore's annotations on its
	 * methods: collectors of
	 * annotated methods ({@code @Tool}, hooks, {@code @Chain}, {@code @Entrypoint},
	 * {@code @Traceable}, {@code @Task}) skip such beans without looking at their methods,
	 * which would otherwise be most of their startup cost.
	 * @param type the class
	 * @return whether it is a framework class
	 */
	public static boolean isFrameworkType(Class<?> type) {
		String name = type.getName();
		for (String prefix : FRAMEWORK_PACKAGES) {
			if (name.startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

	private static boolean isEagerSingleton(ConfigurableListableBeanFactory beanFactory, String name) {
		if (!beanFactory.containsBeanDefinition(name)) {
			return false;
		}
		BeanDefinition definition = beanFactory.getMergedBeanDefinition(name);
		// a factory bean's product is created on demand only
		return definition.isSingleton() && !definition.isLazyInit() && !beanFactory.isFactoryBean(name);
	}

	private static @Nullable Object createdIfPossible(ConfigurableListableBeanFactory beanFactory, String name) {
		try {
			return beanFactory.getBean(name);
		}
		catch (BeanCreationException ex) {
			// as getBeansOfType does: a bean that needs a bean in creation (e.g. the agent
			// that asked for the tools) cannot be looked at yet, and is no tool of it
			if (ex.getMostSpecificCause() instanceof BeanCurrentlyInCreationException inCreation
					&& inCreation.getBeanName() != null && beanFactory.isCurrentlyInCreation(inCreation.getBeanName())) {
				if (logger.isDebugEnabled()) {
					logger.debug("Skipped bean '" + name + "': " + ex.getMostSpecificCause().getMessage());
				}
				return null;
			}
			throw ex;
		}
	}

}
