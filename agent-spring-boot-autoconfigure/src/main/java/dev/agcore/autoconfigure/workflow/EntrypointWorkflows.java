package dev.agcore.autoconfigure.workflow;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.support.ContextBeans;
import dev.agcore.json.AgentJson;
import dev.agcore.workflow.Workflow;
import dev.agcore.workflow.WorkflowContext;
import dev.agcore.workflow.WorkflowInputException;
import dev.agcore.workflow.annotation.Entrypoint;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Finds the {@link Entrypoint @Entrypoint} methods of an application's beans and turns
 * each into a {@link Workflow}. A method may take a {@code JsonNode} (the input), one
 * other value converted from the input JSON (a record, a bean, a {@code String}...) and a
 * {@link WorkflowContext}, in any order; anything else fails startup naming the bean and
 * the method.
 */
final class EntrypointWorkflows {

	private EntrypointWorkflows() {
	}

	static List<Workflow> find(ListableBeanFactory beanFactory) {
		List<Workflow> workflows = new ArrayList<>();
		for (String beanName : beanFactory.getBeanDefinitionNames()) {
			Class<?> type = beanFactory.getType(beanName, false);
			if (type == null) {
				continue;
			}
			Class<?> userType = ClassUtils.getUserClass(type);
			if (ContextBeans.isFrameworkType(userType)) {
				continue;
			}
			for (Method method : ReflectionUtils.getUniqueDeclaredMethods(userType,
					ReflectionUtils.USER_DECLARED_METHODS)) {
				Entrypoint entrypoint = method.getAnnotation(Entrypoint.class);
				if (entrypoint != null) {
					String name = entrypoint.name().isEmpty() ? method.getName() : entrypoint.name();
					workflows.add(Workflow.of(name, function(beanFactory, beanName, userType, method, name))
						.withInputCheck(inputCheck(name, userType, method)));
				}
			}
		}
		return workflows;
	}

	/** Converting the input as the call will: input the method cannot take is refused when a run is queued. */
	private static Workflow.InputCheck inputCheck(String workflow, Class<?> type, Method method) {
		for (int i = 0; i < method.getParameterCount(); i++) {
			Class<?> parameter = method.getParameterTypes()[i];
			if (parameter != WorkflowContext.class && !JsonNode.class.isAssignableFrom(parameter)) {
				JavaType target = AgentJson.mapper()
					.constructType(ResolvableType.forMethodParameter(method, i, type).getType());
				return (input) -> convert(workflow, input, target);
			}
		}
		return Workflow.InputCheck.NONE;
	}

	private static Object convert(String workflow, JsonNode input, JavaType target) {
		String expected = target.getRawClass().getSimpleName();
		try {
			Object value = AgentJson.mapper().treeToValue(input, target);
			if (value == null) {
				// a method that takes a value gets one; JSON null or no input is the caller's mistake
				throw new WorkflowInputException("The input of workflow '" + workflow + "' is missing: expected "
						+ expected + " as JSON");
			}
			return value;
		}
		catch (JacksonException ex) {
			throw WorkflowInputException.conversion(workflow, expected, ex.getOriginalMessage());
		}
	}

	private static dev.agcore.workflow.WorkflowFunction function(ListableBeanFactory beanFactory, String beanName,
			Class<?> type, Method method, String workflow) {
		List<BiFunction<WorkflowContext, JsonNode, @Nullable Object>> arguments = arguments(beanName, type, method,
				workflow);
		if (Modifier.isPrivate(method.getModifiers())) {
			throw invalid(beanName, method, "it is private");
		}
		return (context, input) -> {
			Object bean = beanFactory.getBean(beanName);
			Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
			ReflectionUtils.makeAccessible(invocable);
			Object[] values = new Object[arguments.size()];
			for (int i = 0; i < values.length; i++) {
				values[i] = arguments.get(i).apply(context, input);
			}
			try {
				return invocable.invoke(bean, values);
			}
			catch (InvocationTargetException ex) {
				if (ex.getCause() instanceof Exception cause) {
					throw cause;
				}
				if (ex.getCause() instanceof Error error) {
					throw error;
				}
				throw ex;
			}
		};
	}

	private static List<BiFunction<WorkflowContext, JsonNode, @Nullable Object>> arguments(String beanName,
			Class<?> type, Method method, String workflow) {
		List<BiFunction<WorkflowContext, JsonNode, @Nullable Object>> arguments = new ArrayList<>();
		int contexts = 0;
		int inputs = 0;
		int converted = 0;
		for (int i = 0; i < method.getParameterCount(); i++) {
			Class<?> parameter = method.getParameterTypes()[i];
			if (parameter == WorkflowContext.class) {
				contexts++;
				arguments.add((context, input) -> context);
			}
			else if (JsonNode.class.isAssignableFrom(parameter)) {
				if (parameter != JsonNode.class) {
					throw invalid(beanName, method, "a JSON input parameter must be a JsonNode, not "
							+ parameter.getSimpleName());
				}
				inputs++;
				arguments.add((context, input) -> input);
			}
			else {
				converted++;
				JavaType target = AgentJson.mapper()
					.constructType(ResolvableType.forMethodParameter(method, i, type).getType());
				arguments.add((context, input) -> convert(workflow, input, target));
			}
		}
		if (contexts > 1 || inputs > 1 || converted > 1) {
			throw invalid(beanName, method, "it takes more than one WorkflowContext, JsonNode or converted input");
		}
		return arguments;
	}

	private static AgentConfigurationException invalid(String beanName, Method method, String why) {
		return new AgentConfigurationException("The @Entrypoint method " + method.getName() + " of bean '" + beanName
				+ "' (" + method.getDeclaringClass().getName() + ") is not a valid workflow: " + why,
				"Take at most one JsonNode (the input), one record or bean converted from the input, and one "
						+ "WorkflowContext, and return any value that serialises to JSON.");
	}

}
