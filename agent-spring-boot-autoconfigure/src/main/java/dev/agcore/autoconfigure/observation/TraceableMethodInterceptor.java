package dev.agcore.autoconfigure.observation;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import dev.agcore.RawArguments;
import dev.agcore.Tool;
import dev.agcore.observation.Traceable;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.secret.ActiveSecrets;
import dev.agcore.tool.typed.TypedTool;
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
		// taken now, on the caller's thread, where a running tool call's secrets are active
		ActiveSecrets.Snapshot secrets = ActiveSecrets.snapshot();
		@Nullable String[] arguments = traced.values(invocation.getArguments(), secrets);
		if (Mono.class.isAssignableFrom(traced.returnType()) || Flux.class.isAssignableFrom(traced.returnType())) {
			return observeReactive(invocation, traced, arguments, secrets, registry);
		}
		Observation observation = traced.observation(arguments, registry).start();
		String outcome = "error";
		try (Observation.Scope scope = observation.openScope()) {
			Object result = invocation.proceed();
			outcome = "success";
			return result;
		}
		catch (Throwable ex) {
			observation.error(recordable(ex, secrets));
			throw ex;
		}
		finally {
			observation.lowCardinalityKeyValue("outcome", outcome).stop();
		}
	}

	private Object observeReactive(MethodInvocation invocation, Traced traced, @Nullable String[] arguments,
			ActiveSecrets.Snapshot secrets, ObservationRegistry registry) throws Throwable {
		Object publisher;
		try {
			publisher = invocation.proceed();
		}
		catch (Throwable ex) {
			// failed before returning a publisher: nothing to subscribe to
			traced.observation(arguments, registry)
				.start()
				.error(recordable(ex, secrets))
				.lowCardinalityKeyValue("outcome", "error")
				.stop();
			throw ex;
		}
		if (publisher instanceof Mono<?> mono) {
			return Mono.defer(() -> {
				Observation observation = traced.observation(arguments, registry).start();
				return mono.doOnError((ex) -> observation.error(recordable(ex, secrets)))
					.doFinally((signal) -> stop(observation, signal))
					.contextWrite((context) -> context.put(OBSERVATION_CONTEXT_KEY, observation));
			});
		}
		if (publisher instanceof Flux<?> flux) {
			return Flux.defer(() -> {
				Observation observation = traced.observation(arguments, registry).start();
				return flux.doOnError((ex) -> observation.error(recordable(ex, secrets)))
					.doFinally((signal) -> stop(observation, signal))
					.contextWrite((context) -> context.put(OBSERVATION_CONTEXT_KEY, observation));
			});
		}
		return publisher;
	}

	// an error message can carry a secret the method received: record it scrubbed
	static Throwable recordable(Throwable ex, ActiveSecrets.Snapshot secrets) {
		if (secrets.isEmpty()) {
			return ex;
		}
		boolean changed = false;
		for (Throwable cause = ex; cause != null && !changed; cause = cause.getCause()) {
			String message = cause.getMessage();
			changed = message != null && !secrets.scrub(message).equals(message);
		}
		if (!changed) {
			return ex;
		}
		String message = ex.getMessage();
		ScrubbedException scrubbed = new ScrubbedException(ex.getClass().getName()
				+ ((message != null) ? ": " + secrets.scrub(message) : ""));
		scrubbed.setStackTrace(ex.getStackTrace());
		return scrubbed;
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
	 * Stands in for an exception whose message carried a secret: the original's type and
	 * message, scrubbed, and its stack trace.
	 */
	static final class ScrubbedException extends RuntimeException {

		ScrubbedException(String message) {
			super(message);
		}

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
				Set<Integer> secret = secretParameters(specific, userClass, names);
				for (int i = 0; i < names.length; i++) {
					recorded[i] = (skip.contains(names[i]) || secret.contains(i)) ? null : "args." + names[i];
				}
			}
			return new Traced(observed, name, userClass.getSimpleName(), specific.getName(), recorded,
					specific.getReturnType());
		}

		/**
		 * Return the value recorded for each argument, {@code null} for those not
		 * recorded, with the secrets of a running tool call replaced by their
		 * placeholders.
		 */
		@Nullable String[] values(Object[] arguments, ActiveSecrets.Snapshot secrets) {
			@Nullable String[] values = new String[this.recorded.length];
			for (int i = 0; i < this.recorded.length && i < arguments.length; i++) {
				if (this.recorded[i] != null) {
					// scrubbed before it is cut, so that no part of a secret survives
					values[i] = truncate(secrets.scrub(ObjectUtils.nullSafeToString(arguments[i])));
				}
			}
			return values;
		}

		Observation observation(@Nullable String[] values, ObservationRegistry registry) {
			Observation observation = Observation.createNotStarted(this.name, registry)
				.contextualName(this.className + "#" + this.methodName)
				.lowCardinalityKeyValue("class", this.className)
				.lowCardinalityKeyValue("method", this.methodName);
			for (int i = 0; i < this.recorded.length; i++) {
				String key = this.recorded[i];
				String value = values[i];
				if (key != null && value != null) {
					observation.highCardinalityKeyValue(key, value);
				}
			}
			return observation;
		}

		/**
		 * Return the parameters of a tool that may receive a secret: those a
		 * {@code @Tool} method declares in {@code secrets} (and its raw arguments, when
		 * it declares any), and the input of a {@link TypedTool}, whose secret
		 * parameters are known only to the instance.
		 */
		private static Set<Integer> secretParameters(Method method, Class<?> userClass, String[] names) {
			Set<Integer> secret = new LinkedHashSet<>();
			Tool tool = AnnotatedElementUtils.findMergedAnnotation(method, Tool.class);
			if (tool != null && !List.of(tool.secrets()).equals(List.of(Tool.SECRETS_UNDECLARED))) {
				Set<String> declared = Set.of(tool.secrets());
				for (int i = 0; i < names.length; i++) {
					boolean raw = !declared.isEmpty()
							&& AnnotatedElementUtils.hasAnnotation(method.getParameters()[i], RawArguments.class);
					if (declared.contains(names[i]) || raw) {
						secret.add(i);
					}
				}
			}
			if (TypedTool.class.isAssignableFrom(userClass) && method.getName().equals("call")
					&& method.getParameterCount() == 2 && method.getParameterTypes()[1] == ToolContext.class) {
				secret.add(0);
			}
			return secret;
		}

		private static String truncate(String value) {
			return (value.length() <= MAX_ARGUMENT_LENGTH) ? value
					: value.substring(0, MAX_ARGUMENT_LENGTH - 3) + "...";
		}

	}

}
