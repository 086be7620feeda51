package dev.agcore.autoconfigure.chain;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import dev.agcore.chain.Chain;
import dev.agcore.chain.Chains;
import dev.agcore.chain.Runnable;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.aop.support.AopUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Turns a {@link Chain @Chain} method of a bean into a {@link Runnable}: checks its
 * shape, and calls it through the bean (a proxy's advice included), on a thread that may
 * block when the method returns a plain value.
 */
final class ChainMethods {

	private ChainMethods() {
	}

	/**
	 * Return the chain's name: the annotation's, else the method's.
	 * @throws IllegalArgumentException if the annotation's name is blank
	 */
	static String name(Method method, Chain chain) {
		if (chain.value().isEmpty()) {
			return method.getName();
		}
		if (chain.value().isBlank()) {
			throw new IllegalArgumentException("has a blank chain name");
		}
		return chain.value();
	}

	/**
	 * Return the method as a runnable.
	 * @param bean the bean, possibly a proxy
	 * @param method the method, found on the bean's target class
	 * @param name the chain's name
	 * @param mapper the mapper inputs of another type are converted with
	 * @throws IllegalArgumentException saying what is wrong with the method's shape
	 */
	static Runnable<Object, Object> runnable(Object bean, Method method, String name, Supplier<JsonMapper> mapper) {
		if (!Modifier.isPublic(method.getModifiers())) {
			throw new IllegalArgumentException("is not public");
		}
		if (method.getParameterCount() != 1) {
			throw new IllegalArgumentException(
					"takes " + method.getParameterCount() + " arguments instead of one, the input");
		}
		Class<?> returnType = method.getReturnType();
		if (returnType == void.class || returnType == Void.class || isMonoOfVoid(method)) {
			throw new IllegalArgumentException("returns nothing instead of the output");
		}
		Invoker invoker = new Invoker(bean, invocable(bean, method), name, mapper);
		if (Mono.class.isAssignableFrom(returnType)) {
			return Chains.<Object, Object>reactive((input) -> invoker.publisher(input, Mono::error)).named(name);
		}
		if (Flux.class.isAssignableFrom(returnType)) {
			if (!String.class.equals(typeArgument(method))) {
				throw new IllegalArgumentException("returns a Flux of " + typeName(typeArgument(method))
						+ " instead of a Flux<String> of text pieces; return a Mono to give one value");
			}
			Runnable<Object, String> streaming = Chains.streaming((input) -> invoker.publisher(input, Flux::error));
			return widened(streaming).named(name);
		}
		if (Publisher.class.isAssignableFrom(returnType)) {
			throw new IllegalArgumentException("returns a " + returnType.getSimpleName()
					+ " instead of a value, a Mono or a Flux<String>");
		}
		// the method may block: it never runs on the caller's thread, which may be an event loop
		return Chains.<Object, Object>reactive(
				(input) -> Mono.fromCallable(invoker.call(input)).subscribeOn(Schedulers.boundedElastic()))
			.named(name);
	}

	/** Describe a method for messages, e.g. {@code WeatherChains.forecast(String)}. */
	static String describe(Method method) {
		return method.getDeclaringClass().getSimpleName() + "." + method.getName() + "("
				+ Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName).collect(Collectors.joining(", "))
				+ ")";
	}

	private static Method invocable(Object bean, Method method) {
		Method invocable;
		try {
			// a JDK proxy is called through the interface method it implements
			invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
		}
		catch (IllegalStateException ex) {
			throw new IllegalArgumentException("cannot be called on the bean, a " + bean.getClass().getName()
					+ "; declare it on an interface the bean's proxy implements");
		}
		ReflectionUtils.makeAccessible(invocable);
		return invocable;
	}

	private static boolean isMonoOfVoid(Method method) {
		return Mono.class.isAssignableFrom(method.getReturnType()) && Void.class.equals(typeArgument(method));
	}

	private static @Nullable Type typeArgument(Method method) {
		return (method.getGenericReturnType() instanceof ParameterizedType parameterized)
				? parameterized.getActualTypeArguments()[0] : null;
	}

	private static String typeName(@Nullable Type type) {
		return (type instanceof Class<?> raw) ? raw.getSimpleName() : String.valueOf(type);
	}

	@SuppressWarnings("unchecked")
	private static Runnable<Object, Object> widened(Runnable<Object, String> runnable) {
		// a chain's outputs are only read: a runnable of strings is one of objects
		return (Runnable<Object, Object>) (Runnable<Object, ?>) runnable;
	}

	/** Calls the method with an input, converted to its parameter's type if need be. */
	private static final class Invoker {

		private final Object bean;

		private final Method method;

		private final String name;

		private final Class<?> parameterType;

		private final Supplier<JsonMapper> mapper;

		Invoker(Object bean, Method method, String name, Supplier<JsonMapper> mapper) {
			this.bean = bean;
			this.method = method;
			this.name = name;
			this.parameterType = ClassUtils.resolvePrimitiveIfNecessary(method.getParameterTypes()[0]);
			this.mapper = mapper;
		}

		Callable<@Nullable Object> call(Object input) {
			return () -> invoke(input);
		}

		/** The publisher the method returns, or one that fails as the method did. */
		@SuppressWarnings("unchecked")
		<P> @Nullable P publisher(Object input, Function<Throwable, P> failed) {
			try {
				return (P) invoke(input);
			}
			catch (Exception ex) {
				return failed.apply(ex);
			}
		}

		private @Nullable Object invoke(Object input) throws Exception {
			Object argument = argument(input);
			try {
				return this.method.invoke(this.bean, argument);
			}
			catch (InvocationTargetException ex) {
				// the method's own failure propagates as it raised it
				Throwable cause = ex.getCause();
				if (cause instanceof Exception exception) {
					throw exception;
				}
				if (cause instanceof Error error) {
					throw error;
				}
				throw ex;
			}
		}

		private Object argument(Object input) {
			if (this.parameterType.isInstance(input)) {
				return input;
			}
			JsonMapper mapper = this.mapper.get();
			try {
				return mapper.convertValue(input, mapper.constructType(this.method.getGenericParameterTypes()[0]));
			}
			catch (JacksonException | IllegalArgumentException ex) {
				throw new IllegalArgumentException("Chain '" + this.name + "' takes a "
						+ this.parameterType.getSimpleName() + "; its input, a " + input.getClass().getSimpleName()
						+ ", cannot be converted to one: " + ex.getMessage(), ex);
			}
		}

	}

}
