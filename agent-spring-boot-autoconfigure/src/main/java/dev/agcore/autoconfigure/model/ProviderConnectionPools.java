package dev.agcore.autoconfigure.model;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import dev.agcore.autoconfigure.AgentConfigurationException;
import org.jspecify.annotations.Nullable;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The connection pools of the providers with {@code agent.providers.<name>.max-connections}
 * set: one pool per provider, created when the provider sends its first request and
 * disposed with the application context. Providers without it keep the connector of the
 * {@link WebClient.Builder} they were given (Reactor Netty's shared pool).
 *
 * @since 0.1.0
 */
public final class ProviderConnectionPools implements DisposableBean {

	private final Map<String, ConnectionProvider> pools = new ConcurrentHashMap<>();

	/**
	 * Give a provider's builder a pool of its own when it asks for one. The setting is
	 * checked now; the pool is created with the builder, when the provider sends its
	 * first request.
	 * @param name the provider's name
	 * @param maxConnections its {@code max-connections}, null for none
	 * @param builder where the provider's builder comes from; each builder it returns is
	 * changed in place
	 * @return where the provider's builder comes from, with its pool
	 */
	Supplier<WebClient.Builder> apply(String name, @Nullable Integer maxConnections,
			Supplier<WebClient.Builder> builder) {
		if (maxConnections == null) {
			return builder;
		}
		if (maxConnections < 1) {
			throw new AgentConfigurationException(
					"agent.providers." + name + ".max-connections must be at least 1 (was " + maxConnections + ")",
					"Set it above the number of concurrent calls to this provider, or remove it for the shared pool.");
		}
		return () -> {
			ConnectionProvider pool = this.pools.computeIfAbsent(name,
					(key) -> ConnectionProvider.builder("agcore-" + key)
						.maxConnections(maxConnections)
						.pendingAcquireMaxCount(2 * maxConnections)
						.build());
			return builder.get().clientConnector(new ReactorClientHttpConnector(HttpClient.create(pool)));
		};
	}

	/**
	 * The pool of a provider, for tests and diagnostics.
	 * @param name the provider's name
	 * @return its pool, null when it uses the shared one
	 */
	@Nullable ConnectionProvider pool(String name) {
		return this.pools.get(name);
	}

	@Override
	public void destroy() {
		this.pools.values().forEach(ConnectionProvider::dispose);
		this.pools.clear();
	}

}
