package dev.agcore.autoconfigure.observation;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import dev.agcore.observation.Traceable;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodClassKey;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ObjectUtils;
import org.springframework.util.StringUtils;

/**
 * Records an {@link Observation} around each call of a {@link Traceable @Traceable}
 * method; for a {@code Mono} or {@code Flux}, around each subscription, until it
 * completes, fails or is cancelled.
 */
final class TraceableMethodInterceptor implements MethodInterceptor {

	static final String DEFAULT_NAME = "agent.traceable";

	static final int MAX_ARGUMENT_LENGTH = 256;

	// the key under which Micrometer's context propagation finds the current observation
	private static final String OBSERVATION_CONTEXT_KEY = "micrometer.observation";

	private static final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	private final Supplier<ObservationRegistry> registry;

	private final Map<MethodClassKey, Traced> cache = new ConcurrentHashMap<>();

	TraceableMethodInterceptor(Supplier<ObservationRegistry> registry) {
		this.registry = registry;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopUtils.getTargetClass(target) : invocation.getMethod().getDeclaringClass();
		Traced traced = this.cache.computeIfAbsent(new MethodClassKey(invocation.getMethod(), targetClass),
				(key) -> Traced.of(invocation.getMethod(), targetClass));
		ObservationRegistry registry = this.registry.get();
		if (!traced.observed() || registry.isNoop()) {
			return invocation.proceed();
		}
		Object[] arguments = invocation.getArguments();
		if (Mono.class.isAssignableFrom(traced.returnType()) || Flux.class.isAssignableFrom(traced.returnType())) {
			return observeReactive(invocation, traced, arguments, registry);
		}
		Observation observation = traced.observation(arguments, registry).start();
		String outcome = "error";
		try (Observation.Scope scope = observation.openScope()) {
			Object result = invocation.proceed();
			outcome = "success";
			return result;
		}
		catch (Throwable ex) {
			observation.error(ex);
			throw ex;
		}
		finally {
			observation.lowCardinalityKeyValue("outcome", outcome).stop();
		}
	}

	private Object observeReactive(MethodInvocation invocation, Traced traced, Object[] arguments,
			ObservationRegistry registry) throws Throwable {
		Object publisher;
		try {
			publisher = invocation.proceed();
		}
		catch (Throwable ex) {
			// failed before returning a publisher: nothing to subscribe to
			traced.observation(arguments, registry).start().error(ex).lowCardinalityKeyValue("outcome", "error").stop();
			throw ex;
		}
		if (publisher instanceof Mono<?> mono) {
			return Mono.defer(() -> {
				Observation observation = traced.observation(arguments, registry).start();
				return mono.doOnError(observation::error)
					.doFinally((signal) -> stop(observation, signal))
					.contextWrite((context) -> context.put(OBSERVATION_CONTEXT_KEY, observation));
			});
		}
		if (publisher instanceof Flux<?> flux) {
			return Flux.defer(() -> {
				Observation observation = traced.observation(arguments, registry).start();
				return flux.doOnError(observation::error)
					.doFinally((signal) -> stop(observation, signal))
					.contextWrite((context) -> context.put(OBSERVATION_CONTEXT_KEY, observation));
			});
		}
		return publisher;
	}

	private static void stop(Observation observation, SignalType signal) {
		String outcome = switch (signal) {
			case ON_COMPLETE -> "success";
			case CANCEL -> "cancelled";
			default -> "error";
		};
		observation.lowCardinalityKeyValue("outcome", outcome).stop();
	}

	/**
	 * What to record for one method of one class.
	 *
	 * @param observed whether the method is observed at all
	 * @param name the observation name
	 * @param className the {@code class} key value
	 * @param methodName the {@code method} key value
	 * @param recorded for each parameter, its {@code args.} key, or null when it is not
	 * recorded
	 * @param returnType the declared return type
	 */
	record Traced(boolean observed, String name, String className, String methodName, @Nullable String[] recorded,
			Class<?> returnType) {

		static Traced of(Method method, Class<?> targetClass) {
			Class<?> userClass = ClassUtils.getUserClass(targetClass);
			Method specific = AopUtils.getMostSpecificMethod(method, userClass);
			Traceable onMethod = AnnotatedElementUtils.findMergedAnnotation(specific, Traceable.class);
			Traceable onClass = AnnotatedElementUtils.findMergedAnnotation(userClass, Traceable.class);
			boolean observed = onMethod != null || (onClass != null && Modifier.isPublic(specific.getModifiers())
					&& specific.getDeclaringClass() != Object.class);
			String name = (onMethod != null && StringUtils.hasText(onMethod.name())) ? onMethod.name()
					: (onClass != null && StringUtils.hasText(onClass.name())) ? onClass.name() : DEFAULT_NAME;
			Set<String> skip = new LinkedHashSet<>();
			if (onClass != null) {
				skip.addAll(Set.of(onClass.skip()));
			}
			if (onMethod != null) {
				skip.addAll(Set.of(onMethod.skip()));
			}
			String @Nullable [] names = parameterNames.getParameterNames(specific);
			@Nullable String[] recorded = new String[specific.getParameterCount()];
			// without parameter names, skip cannot be honoured: record no argument at all
			if (names != null) {
				for (int i = 0; i < names.length; i++) {
					recorded[i] = skip.contains(names[i]) ? null : "args." + names[i];
				}
			}
			return new Traced(observed, name, userClass.getSimpleName(), specific.getName(), recorded,
					specific.getReturnType());
		}

		Observation observation(Object[] arguments, ObservationRegistry registry) {
			Observation observation = Observation.createNotStarted(this.name, registry)
				.contextualName(this.className + "#" + this.methodName)
				.lowCardinalityKeyValue("class", this.className)
				.lowCardinalityKeyValue("method", this.methodName);
			for (int i = 0; i < this.recorded.length && i < arguments.length; i++) {
				String key = this.recorded[i];
				if (key != null) {
					observation.highCardinalityKeyValue(key, truncate(ObjectUtils.nullSafeToString(arguments[i])));
				}
			}
			return observation;
		}

		private static String truncate(String value) {
			return (value.length() <= MAX_ARGUMENT_LENGTH) ? value
					: value.substring(0, MAX_ARGUMENT_LENGTH - 3) + "...";
		}

	}

}
