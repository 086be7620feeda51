package dev.agcore.autoconfigure.aot;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.agcore.Tool;
import dev.agcore.chain.Chain;
import dev.agcore.middleware.annotation.AfterAgent;
import dev.agcore.middleware.annotation.AfterModel;
import dev.agcore.middleware.annotation.BeforeAgent;
import dev.agcore.middleware.annotation.BeforeModel;
import dev.agcore.middleware.annotation.DynamicPrompt;
import dev.agcore.middleware.annotation.WrapModelCall;
import dev.agcore.middleware.annotation.WrapToolCall;
import dev.agcore.observation.Traceable;
import dev.agcore.workflow.annotation.Entrypoint;
import dev.agcore.workflow.annotation.Task;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Registers, at build time, what the application's annotated bean methods need in a
 * native image: the {@code @Tool}, {@code @Chain}, {@code @Entrypoint}, {@code @Task},
 * {@code @Traceable} and middleware hook methods are found and invoked reflectively, and
 * their parameter and return types are bound from JSON and described by generated JSON
 * schemas. Each such method is registered for invocation, and each of its types (type
 * arguments included, so {@code Mono<Order>} covers {@code Order}) for JSON binding.
 */
final class AgentBeanMethodsAotProcessor implements BeanFactoryInitializationAotProcessor {

	/** The annotations that make a bean method reachable only by reflection. */
	static final List<Class<? extends Annotation>> ANNOTATIONS = List.of(Tool.class, Chain.class, Entrypoint.class,
			Task.class, Traceable.class, BeforeAgent.class, AfterAgent.class, BeforeModel.class, AfterModel.class,
			WrapModelCall.class, WrapToolCall.class, DynamicPrompt.class);

	@Override
	public @Nullable BeanFactoryInitializationAotContribution processAheadOfTime(
			ConfigurableListableBeanFactory beanFactory) {
		Set<Method> methods = new LinkedHashSet<>();
		for (String name : beanFactory.getBeanDefinitionNames()) {
			// no bean is created: the type comes from its definition (a class proxy's user class)
			Class<?> type = beanFactory.getType(name, false);
			if (type != null) {
				methods.addAll(annotatedMethods(ClassUtils.getUserClass(type)));
			}
		}
		if (methods.isEmpty()) {
			return null;
		}
		return (context, code) -> register(context.getRuntimeHints().reflection(), methods);
	}

	static Set<Method> annotatedMethods(Class<?> type) {
		Set<Method> methods = new LinkedHashSet<>(MethodIntrospector
			.selectMethods(type, (MethodIntrospector.MetadataLookup<Boolean>) (method) -> isAnnotated(method) ? true : null)
			.keySet());
		// @Traceable on the class observes its public methods
		if (AnnotatedElementUtils.hasAnnotation(type, Traceable.class)) {
			for (Method method : ReflectionUtils.getUniqueDeclaredMethods(type, ReflectionUtils.USER_DECLARED_METHODS)) {
				if (Modifier.isPublic(method.getModifiers())) {
					methods.add(method);
				}
			}
		}
		return methods;
	}

	private static boolean isAnnotated(Method method) {
		for (Class<? extends Annotation> annotation : ANNOTATIONS) {
			if (AnnotatedElementUtils.hasAnnotation(method, annotation)) {
				return true;
			}
		}
		return false;
	}

	private static void register(ReflectionHints reflection, Set<Method> methods) {
		BindingReflectionHintsRegistrar binding = new BindingReflectionHintsRegistrar();
		Set<Class<?>> types = new LinkedHashSet<>();
		for (Method method : methods) {
			reflection.registerMethod(method, ExecutableMode.INVOKE);
			for (Type parameter : method.getGenericParameterTypes()) {
				collect(ResolvableType.forType(parameter), types);
			}
			collect(ResolvableType.forMethodReturnType(method), types);
		}
		for (Class<?> type : types) {
			binding.registerReflectionHints(reflection, type);
		}
	}

	// the application's types, without the JDK's and Reactor's wrappers around them
	private static void collect(ResolvableType type, Set<Class<?>> types) {
		if (type.isArray()) {
			collect(type.getComponentType(), types);
			return;
		}
		for (ResolvableType generic : type.getGenerics()) {
			collect(generic, types);
		}
		Class<?> resolved = type.resolve();
		if (resolved != null && !resolved.isPrimitive() && !isPlatform(resolved.getName())) {
			types.add(resolved);
		}
	}

	private static boolean isPlatform(String name) {
		return name.startsWith("java.") || name.startsWith("reactor.") || name.startsWith("org.reactivestreams.");
	}

}
