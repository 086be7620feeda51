package dev.agcore.provider.support;

import java.util.Objects;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The {@link WebClient} of a provider's model, built when the model first sends a
 * request rather than when the model is created. Building one initializes the HTTP codecs
 * and, from a Spring Boot builder, the client connector with Reactor Netty's resources
 * and DNS resolver: work that an application need not do while it starts, when no model
 * is called yet. Built once, by whichever thread asks first.
 *
 * @since 0.1.0
 */
public final class DeferredWebClient {

	private final SingletonSupplier<WebClient> webClient;

	private DeferredWebClient(Supplier<WebClient> factory) {
		this.webClient = SingletonSupplier.of(factory);
	}

	/**
	 * A client built from a model builder's settings: the builder it was given (which the
	 * caller has cloned), else the source of one, else a default {@link WebClient}.
	 * @param builder a builder to build, owned by the returned client
	 * @param source where to get a builder from on first use, cloned then
	 * @return the deferred client
	 */
	public static DeferredWebClient of(WebClient.@Nullable Builder builder,
			@Nullable Supplier<WebClient.Builder> source) {
		if (builder != null) {
			return new DeferredWebClient(builder::build);
		}
		if (source != null) {
			return new DeferredWebClient(
					() -> Objects.requireNonNull(source.get(), "The WebClient.Builder source returned null")
						.clone()
						.build());
		}
		return new DeferredWebClient(() -> WebClient.builder().build());
	}

	/**
	 * The client, built on the first call.
	 * @return the client
	 */
	public WebClient client() {
		return this.webClient.obtain();
	}

}
