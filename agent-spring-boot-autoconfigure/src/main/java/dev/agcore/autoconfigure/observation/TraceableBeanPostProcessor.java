package dev.agcore.autoconfigure.observation;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.support.ContextBeans;
import dev.agcore.observation.Traceable;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.aop.framework.AbstractAdvisingBeanPostProcessor;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.function.SingletonSupplier;

/**
 * Proxies every bean with a {@link Traceable @Traceable} method or class, so that its
 * calls are observed by a {@link TraceableMethodInterceptor}. Checks each bean's
 * {@link Traceable#skip()} names against its parameters, so that a misspelt name fails
 * startup instead of letting the value be recorded.
 */
final class TraceableBeanPostProcessor extends AbstractAdvisingBeanPostProcessor {

	TraceableBeanPostProcessor(ObjectProvider<ObservationRegistry> observationRegistry) {
		ComposablePointcut pointcut = new ComposablePointcut(new AnnotationMatchingPointcut(Traceable.class, true))
			.union(new AnnotationMatchingPointcut(null, Traceable.class, true));
		// resolved on first use, then kept: a post-processor must not create beans early
		TraceableMethodInterceptor interceptor = new TraceableMethodInterceptor(
				SingletonSupplier.of(() -> observationRegistry.getIfAvailable(() -> ObservationRegistry.NOOP)));
		this.advisor = new DefaultPointcutAdvisor(pointcut, interceptor);
		// observe the whole call, other advice (such as transactions) included
		setBeforeExistingAdvisors(true);
		setProxyTargetClass(true);
	}

	// the framework's own beans, most of a context, are never looked at method by method
	@Override
	protected boolean isEligible(Class<?> targetClass) {
		return !ContextBeans.isFrameworkType(targetClass) && super.isEligible(targetClass);
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (isEligible(bean, beanName)) {
			checkSkippedNames(ClassUtils.getUserClass(AopUtils.getTargetClass(bean)), beanName);
		}
		return super.postProcessAfterInitialization(bean, beanName);
	}

	private static void checkSkippedNames(Class<?> type, String beanName) {
		Traceable onClass = AnnotatedElementUtils.findMergedAnnotation(type, Traceable.class);
		Set<String> classParameters = new HashSet<>();
		List<String> problems = new ArrayList<>();
		for (Method method : ReflectionUtils.getUniqueDeclaredMethods(type, ReflectionUtils.USER_DECLARED_METHODS)) {
			TraceableMethodInterceptor.Traced traced = TraceableMethodInterceptor.Traced.of(method, type);
			String[] names = new DefaultParameterNameDiscoverer().getParameterNames(method);
			if (!traced.observed() || names == null) {
				continue;
			}
			classParameters.addAll(Arrays.asList(names));
			Traceable onMethod = AnnotatedElementUtils.findMergedAnnotation(method, Traceable.class);
			if (onMethod != null) {
				for (String skip : onMethod.skip()) {
					if (!Arrays.asList(names).contains(skip)) {
						problems.add("'" + skip + "' is no parameter of " + method.getName() + Arrays.asList(names));
					}
				}
			}
		}
		if (onClass != null && !classParameters.isEmpty()) {
			for (String skip : onClass.skip()) {
				if (!classParameters.contains(skip)) {
					problems.add("'" + skip + "' (on the class) is no parameter of any observed method");
				}
			}
		}
		if (!problems.isEmpty()) {
			throw new AgentConfigurationException("@Traceable skip names of bean '" + beanName + "' ("
					+ type.getName() + ") that match no parameter: " + String.join("; ", problems),
					"Use the parameter names as compiled (with -parameters), or remove the names from skip.");
		}
	}

}
