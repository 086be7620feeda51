package dev.agcore.autoconfigure.workflow;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.support.ContextBeans;
import dev.agcore.workflow.annotation.Task;

import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Proxies beans with {@link Task @Task} methods (class proxies) so that a call inside a
 * running workflow is checkpointed by {@link TaskMethodInterceptor}.
 */
final class TaskBeanPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor {

	TaskBeanPostProcessor() {
		this.advisor = new DefaultPointcutAdvisor(new AnnotationMatchingPointcut(null, Task.class, true),
				new TaskMethodInterceptor());
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
			Class<?> type = ClassUtils.getUserClass(AopUtils.getTargetClass(bean));
			for (Method method : ReflectionUtils.getUniqueDeclaredMethods(type, ReflectionUtils.USER_DECLARED_METHODS)) {
				if (method.isAnnotationPresent(Task.class)
						&& (Modifier.isFinal(method.getModifiers()) || Modifier.isPrivate(method.getModifiers())
								|| Modifier.isStatic(method.getModifiers()) || Modifier.isFinal(type.getModifiers()))) {
					throw new AgentConfigurationException("The @Task method " + method.getName() + " of bean '"
							+ beanName + "' (" + type.getName() + ") cannot be proxied: it or its class is final, "
							+ "private or static", "Make the method and its class non-final, non-private and not static.");
				}
			}
		}
		return super.postProcessAfterInitialization(bean, beanName);
	}

}
