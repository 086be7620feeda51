package dev.agcore.middleware.annotation;

import java.lang.annotation.Annotation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.MiddlewareException;
import dev.agcore.middleware.ModelCall;
import dev.agcore.middleware.ToolCallHandler;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import reactor.core.publisher.Mono;

/**
 * Turns the hook-annotated methods of an object into {@link AgentMiddleware}s, one per
 * method, checking every signature once, up front.
 */
public final class AnnotatedMiddleware {

	private static final List<Class<? extends Annotation>> HOOKS = List.of(BeforeAgent.class, AfterAgent.class,
			BeforeModel.class, AfterModel.class, WrapModelCall.class, WrapToolCall.class, DynamicPrompt.class);

	private AnnotatedMiddleware() {
	}

	/**
	 * Return whether a class has any hook-annotated method.
	 * @param type the class
	 * @return whether it declares hooks
	 */
	public static boolean hasHooks(Class<?> type) {
		return !hookMethods(type).isEmpty();
	}

	/**
	 * Create one middleware per hook-annotated method.
	 * @param bean the object whose methods to call
	 * @param targetClass the class to scan (the user class behind a proxy)
	 * @param source a description of the object for names and errors, e.g. a bean name
	 * @return the middleware, ordered by method name for a stable order
	 * @throws MiddlewareException naming the method and the expected signature when a
	 * hook method is declared wrongly
	 */
	public static List<AgentMiddleware> from(Object bean, Class<?> targetClass, String source) {
		Objects.requireNonNull(bean, "'bean' must not be null");
		List<AgentMiddleware> middleware = new ArrayList<>();
		for (Method method : hookMethods(targetClass)) {
			Class<? extends Annotation> hook = hookOf(method);
			Method invocable = ClassUtils.getMostSpecificMethod(method, bean.getClass());
			if (!Modifier.isPublic(invocable.getModifiers()) || !Modifier.isPublic(invocable.getDeclaringClass().getModifiers())) {
				invocable.setAccessible(true);
			}
			String name = source + "#" + method.getName();
			boolean context = takesContext(hook, method);
			Invoker invoker = new Invoker(bean, invocable, name, context);
			middleware.add(Mono.class.isAssignableFrom(method.getReturnType()) ? adaptReactive(hook, invoker, name)
					: adapt(hook, invoker, name));
		}
		return middleware;
	}

	private static List<Method> hookMethods(Class<?> type) {
		Map<Method, Class<? extends Annotation>> found = MethodIntrospector.selectMethods(type,
				(MethodIntrospector.MetadataLookup<Class<? extends Annotation>>) AnnotatedMiddleware::hookOrNull);
		List<Method> methods = new ArrayList<>(found.keySet());
		methods.sort(Comparator.comparing(Method::getName));
		return methods;
	}

	private static @Nullable Class<? extends Annotation> hookOrNull(Method method) {
		Class<? extends Annotation> result = null;
		for (Class<? extends Annotation> hook : HOOKS) {
			if (AnnotatedElementUtils.hasAnnotation(method, hook)) {
				if (result != null) {
					throw new MiddlewareException("Method " + describe(method) + " has both @" + result.getSimpleName()
							+ " and @" + hook.getSimpleName() + "; one hook per method");
				}
				result = hook;
			}
		}
		return result;
	}

	private static Class<? extends Annotation> hookOf(Method method) {
		return Objects.requireNonNull(hookOrNull(method));
	}

	/** Check the signature; return whether the method takes the AgentContext first. */
	private static boolean takesContext(Class<? extends Annotation> hook, Method method) {
		Type[] params = method.getGenericParameterTypes();
		boolean context = params.length > 0 && params[0] == AgentContext.class;
		Type[] rest = context ? java.util.Arrays.copyOfRange(params, 1, params.length) : params;
		Type returns = method.getGenericReturnType();
		boolean ok = switch (hook.getSimpleName()) {
			case "BeforeAgent", "AfterAgent" -> rest.length == 1 && isMessageList(rest[0])
					&& (returns == void.class || isMonoOf(returns, Void.class));
			case "BeforeModel" -> rest.length == 1 && rest[0] == ChatRequest.class
					&& (returns == ChatRequest.class || isMonoOf(returns, ChatRequest.class));
			case "AfterModel" -> rest.length == 2 && rest[0] == ChatRequest.class && rest[1] == ChatResponse.class
					&& (returns == ChatResponse.class || isMonoOf(returns, ChatResponse.class));
			case "WrapModelCall" -> rest.length == 2 && rest[0] == ChatRequest.class && rest[1] == ModelCall.class
					&& isMonoOf(returns, ChatResponse.class);
			case "WrapToolCall" -> rest.length == 2 && rest[0] == ToolCall.class && rest[1] == ToolCallHandler.class
					&& isMonoOf(returns, ToolResultMessage.class);
			case "DynamicPrompt" -> rest.length == 1 && isMessageList(rest[0])
					&& (returns == String.class || isMonoOf(returns, String.class));
			default -> false;
		};
		if (!ok) {
			throw new MiddlewareException("Method " + describe(method) + " is annotated @" + hook.getSimpleName()
					+ " but has the wrong signature; expected " + expected(hook));
		}
		return context;
	}

	// the plain form: a Mono of the same type is accepted too, as the annotations document
	private static String expected(Class<? extends Annotation> hook) {
		return switch (hook.getSimpleName()) {
			case "BeforeAgent", "AfterAgent" -> "void name([AgentContext context,] List<Message> messages)";
			case "BeforeModel" -> "ChatRequest name([AgentContext context,] ChatRequest request)";
			case "AfterModel" -> "ChatResponse name([AgentContext context,] ChatRequest request, ChatResponse response)";
			case "WrapModelCall" -> "Mono<ChatResponse> name([AgentContext context,] ChatRequest request, ModelCall next)";
			case "WrapToolCall" -> "Mono<ToolResultMessage> name([AgentContext context,] ToolCall call, ToolCallHandler next)";
			default -> "String name([AgentContext context,] List<Message> messages)";
		};
	}

	private static boolean isMessageList(Type type) {
		return type instanceof ParameterizedType parameterized && parameterized.getRawType() == List.class
				&& parameterized.getActualTypeArguments()[0] == Message.class;
	}

	private static boolean isMonoOf(Type type, Class<?> element) {
		return type instanceof ParameterizedType parameterized && parameterized.getRawType() == Mono.class
				&& parameterized.getActualTypeArguments()[0] == element;
	}

	private static String describe(Method method) {
		return method.getDeclaringClass().getName() + "#" + method.getName();
	}

	@SuppressWarnings("unchecked")
	private static AgentMiddleware adapt(Class<? extends Annotation> hook, Invoker invoker, String name) {
		return switch (hook.getSimpleName()) {
			case "BeforeAgent" -> new Named(name) {
				@Override
				public void beforeAgent(AgentContext context, List<Message> messages) {
					invoker.invoke(context, messages);
				}
			};
			case "AfterAgent" -> new Named(name) {
				@Override
				public void afterAgent(AgentContext context, List<Message> messages) {
					invoker.invoke(context, messages);
				}
			};
			case "BeforeModel" -> new Named(name) {
				@Override
				public ChatRequest beforeModel(AgentContext context, ChatRequest request) {
					return (ChatRequest) invoker.invoke(context, request);
				}
			};
			case "AfterModel" -> new Named(name) {
				@Override
				public ChatResponse afterModel(AgentContext context, ChatRequest request, ChatResponse response) {
					return (ChatResponse) invoker.invoke(context, request, response);
				}
			};
			case "WrapModelCall" -> new Named(name) {
				@Override
				public Mono<ChatResponse> wrapModelCall(AgentContext context, ChatRequest request, ModelCall next) {
					return Mono.defer(() -> (Mono<ChatResponse>) invoker.invoke(context, request, next));
				}
			};
			case "WrapToolCall" -> new Named(name) {
				@Override
				public Mono<ToolResultMessage> wrapToolCall(AgentContext context, ToolCall call, ToolCallHandler next) {
					return Mono.defer(() -> (Mono<ToolResultMessage>) invoker.invoke(context, call, next));
				}
			};
			default -> new Named(name) {
				@Override
				public ChatRequest beforeModel(AgentContext context, ChatRequest request) {
					return request.withSystemPrompt((String) invoker.invoke(context, request.conversation()));
				}
			};
		};
	}

	/**
	 * Adapt a method that returns a {@code Mono}: it overrides the reactive form of the
	 * hook, is called on whatever thread the loop is on, and must not block.
	 */
	private static AgentMiddleware adaptReactive(Class<? extends Annotation> hook, Invoker invoker, String name) {
		return switch (hook.getSimpleName()) {
			case "BeforeAgent" -> new Named(name) {
				@Override
				public Mono<Void> beforeAgentAsync(AgentContext context, List<Message> messages) {
					return invoker.invokeReactive(context, messages);
				}
			};
			case "AfterAgent" -> new Named(name) {
				@Override
				public Mono<Void> afterAgentAsync(AgentContext context, List<Message> messages) {
					return invoker.invokeReactive(context, messages);
				}
			};
			case "BeforeModel" -> new Named(name) {
				@Override
				public Mono<ChatRequest> beforeModelAsync(AgentContext context, ChatRequest request) {
					return invoker.invokeReactive(context, request);
				}
			};
			case "AfterModel" -> new Named(name) {
				@Override
				public Mono<ChatResponse> afterModelAsync(AgentContext context, ChatRequest request,
						ChatResponse response) {
					return invoker.invokeReactive(context, request, response);
				}
			};
			case "DynamicPrompt" -> new Named(name) {
				@Override
				public Mono<ChatRequest> beforeModelAsync(AgentContext context, ChatRequest request) {
					return invoker.<String>invokeReactive(context, request.conversation())
						.defaultIfEmpty("")
						.map(request::withSystemPrompt);
				}
			};
			default -> adapt(hook, invoker, name);
		};
	}

	/** Calls one hook method, passing the context when the method takes it. */
	private record Invoker(Object bean, Method method, String name, boolean takesContext) {

		@SuppressWarnings("unchecked")
		<T> Mono<T> invokeReactive(AgentContext context, Object... args) {
			return Mono.defer(() -> {
				Mono<T> result = (Mono<T>) invoke(context, args);
				if (result == null) {
					throw new MiddlewareException("Middleware " + this.name + " returned null instead of a Mono");
				}
				return result;
			});
		}

		@Nullable Object invoke(AgentContext context, Object... args) {
			Object[] actual = args;
			if (this.takesContext) {
				actual = new Object[args.length + 1];
				actual[0] = context;
				System.arraycopy(args, 0, actual, 1, args.length);
			}
			try {
				return this.method.invoke(this.bean, actual);
			}
			catch (InvocationTargetException ex) {
				Throwable cause = ex.getTargetException();
				if (cause instanceof RuntimeException runtime) {
					throw runtime;
				}
				throw new MiddlewareException("Middleware " + this.name + " failed: " + cause.getMessage(), cause);
			}
			catch (IllegalAccessException ex) {
				throw new MiddlewareException("Cannot call middleware " + this.name, ex);
			}
		}

	}

	/** A middleware named after the method it calls. */
	private abstract static class Named implements AgentMiddleware {

		private final String name;

		Named(String name) {
			this.name = name;
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public String toString() {
			return this.name;
		}

	}

}
