package dev.agcore.autoconfigure.workflow;

import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.Optional;

import dev.agcore.json.AgentJson;
import dev.agcore.workflow.WorkflowContext;
import dev.agcore.workflow.WorkflowTaskException;
import dev.agcore.workflow.annotation.Task;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JavaType;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Checkpoints a {@link Task @Task} method called inside a running workflow (the
 * {@link WorkflowContext#current() current context}): the call becomes a task of that
 * context, whose stored result is read back as the method's generic return type on
 * replay. Outside a workflow the call passes through. A checked exception of the method
 * reaches the caller as it is.
 */
final class TaskMethodInterceptor implements MethodInterceptor {

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Optional<WorkflowContext> context = WorkflowContext.current();
		if (context.isEmpty()) {
			return invocation.proceed();
		}
		Method method = invocation.getMethod();
		Class<?> target = (invocation.getThis() != null) ? AopUtils.getTargetClass(invocation.getThis())
				: method.getDeclaringClass();
		Task task = AnnotatedElementUtils.findMergedAnnotation(method, Task.class);
		String name = (task != null && !task.name().isEmpty()) ? task.name() : method.getName();
		JavaType type = AgentJson.mapper().constructType(ResolvableType.forMethodReturnType(method, target).getType());
		try {
			return context.get().task(name, type, () -> proceed(invocation));
		}
		catch (WorkflowTaskException ex) {
			throw (ex.getCause() != null) ? ex.getCause() : ex;
		}
	}

	private static @Nullable Object proceed(MethodInvocation invocation) throws Exception {
		try {
			return invocation.proceed();
		}
		catch (Exception | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new UndeclaredThrowableException(ex);
		}
	}

}
