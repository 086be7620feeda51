package dev.agcore.tool.schema;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.agcore.tool.ToolContext;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * Finds types that cannot travel as JSON arguments (streams, threads, callbacks, abstract
 * types without subtype information), so a tool declaring one fails at startup rather
 * than on the model's first call.
 */
final class UnsupportedTypes {

	private static final Set<Class<?>> UNSUPPORTED = Set.of(AutoCloseable.class, Thread.class, ThreadGroup.class,
			Class.class, ClassLoader.class, Runnable.class, Future.class, CompletionStage.class, Executor.class,
			Iterator.class, ToolContext.class);

	private static final String MEMORY_PACKAGE = "dev.agcore.memory";

	private UnsupportedTypes() {
	}

	/**
	 * Return why a type cannot be bound from JSON, or {@code null} if it can.
	 * @param type the type to check
	 * @return the reason, or {@code null}
	 */
	static @Nullable String problem(Type type) {
		return problem(type, new HashSet<>());
	}

	private static @Nullable String problem(Type type, Set<Class<?>> seen) {
		if (type instanceof Class<?> clazz) {
			return problem(clazz, seen);
		}
		if (type instanceof ParameterizedType parameterized) {
			String problem = problem(parameterized.getRawType(), seen);
			for (Type argument : parameterized.getActualTypeArguments()) {
				problem = (problem != null) ? problem : problem(argument, seen);
			}
			return problem;
		}
		if (type instanceof GenericArrayType array) {
			return problem(array.getGenericComponentType(), seen);
		}
		if (type instanceof WildcardType wildcard) {
			return problem(wildcard.getUpperBounds()[0], seen);
		}
		if (type instanceof TypeVariable<?> variable) {
			return "type variable '" + variable.getName() + "' cannot be resolved to a concrete type";
		}
		return "type " + type.getTypeName() + " is not supported";
	}

	private static @Nullable String problem(Class<?> clazz, Set<Class<?>> seen) {
		if (clazz.isArray()) {
			return problem(clazz.getComponentType(), seen);
		}
		if (clazz == void.class || clazz == Void.class) {
			return "void is not a value";
		}
		for (Class<?> unsupported : UNSUPPORTED) {
			if (unsupported.isAssignableFrom(clazz)) {
				return "type " + clazz.getName() + " cannot be represented in JSON";
			}
		}
		if (clazz.getPackageName().equals(MEMORY_PACKAGE)) {
			return "type " + clazz.getName() + " cannot be represented in JSON; declare a SessionMemory or "
					+ "LongTermStore parameter to have memory injected";
		}
		if ((clazz.isInterface() && clazz.isAnnotationPresent(FunctionalInterface.class))
				|| clazz.getName().startsWith("java.util.function.")
				|| clazz.getName().startsWith("java.lang.reflect.")) {
			return "type " + clazz.getName() + " cannot be represented in JSON";
		}
		if (isAbstract(clazz) && !isBindableAbstract(clazz)) {
			return "abstract type " + clazz.getName()
					+ " cannot be bound without Jackson subtype information (@JsonTypeInfo)";
		}
		if (clazz.isRecord() && seen.add(clazz)) {
			for (RecordComponent component : clazz.getRecordComponents()) {
				String problem = problem(component.getGenericType(), seen);
				if (problem != null) {
					return problem + " (record component '" + clazz.getSimpleName() + "." + component.getName() + "')";
				}
			}
		}
		return null;
	}

	private static boolean isAbstract(Class<?> clazz) {
		return !clazz.isPrimitive() && !clazz.isArray() && Modifier.isAbstract(clazz.getModifiers());
	}

	// Abstract types Jackson binds out of the box, or told how to bind by annotations
	private static boolean isBindableAbstract(Class<?> clazz) {
		return clazz.isEnum() || Collection.class.isAssignableFrom(clazz) || Map.class.isAssignableFrom(clazz)
				|| JsonNode.class.isAssignableFrom(clazz) || Number.class.isAssignableFrom(clazz)
				|| CharSequence.class == clazz || clazz.getName().startsWith("java.time.")
				|| clazz.isAnnotationPresent(JsonTypeInfo.class) || clazz.isAnnotationPresent(JsonSubTypes.class)
				|| clazz.isAnnotationPresent(JsonDeserialize.class);
	}

}
