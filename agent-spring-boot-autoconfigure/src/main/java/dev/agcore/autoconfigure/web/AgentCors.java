package dev.agcore.autoconfigure.web;

import java.util.List;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.AgentProperties;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.Ordered;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.reactive.CorsWebFilter;
import org.springframework.web.cors.reactive.UrlBasedCorsConfigurationSource;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Answers CORS requests to the agent and workflow routes as {@code agent.web.cors.*}
 * says: preflight requests of an allowed origin get the allowed methods and headers,
 * other origins are refused (403), and other paths are left alone. Ordered before Spring
 * Security's filter chain ({@code -100}): a preflight request carries no credentials and
 * is answered here; the actual request still goes through the chain.
 *
 * @since 0.1.0
 */
public final class AgentCors implements WebFilter, Ordered {

	/** Before Spring Security's {@code WebFilterChainProxy}, at -100. */
	public static final int ORDER = -110;

	private final CorsWebFilter filter;

	AgentCors(AgentProperties.Cors cors, List<String> basePaths) {
		CorsConfiguration configuration = configuration(cors);
		UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
		for (String basePath : basePaths) {
			source.registerCorsConfiguration(basePath + "/**", configuration);
		}
		this.filter = new CorsWebFilter(source);
	}

	private static CorsConfiguration configuration(AgentProperties.Cors cors) {
		if (cors.isAllowCredentials() && cors.getAllowedOrigins().stream().anyMatch((origin) -> origin.strip().equals("*"))) {
			throw new AgentConfigurationException(
					"agent.web.cors.allow-credentials=true with agent.web.cors.allowed-origins '*' would let any site "
							+ "call the agents with the user's credentials",
					"List the origins that may call with credentials, or set agent.web.cors.allow-credentials=false.");
		}
		if (cors.getMaxAge().isNegative()) {
			throw new AgentConfigurationException("agent.web.cors.max-age must not be negative (was " + cors.getMaxAge()
					+ ")", "Set agent.web.cors.max-age to a duration such as 30m.");
		}
		CorsConfiguration configuration = new CorsConfiguration();
		// patterns: exact origins, "*" and "https://*.example.com" alike
		configuration.setAllowedOriginPatterns(cors.getAllowedOrigins().stream().map(String::strip).toList());
		configuration.setAllowedMethods(cors.getAllowedMethods());
		configuration.setAllowedHeaders(cors.getAllowedHeaders());
		configuration.setExposedHeaders(cors.getExposedHeaders());
		configuration.setAllowCredentials(cors.isAllowCredentials());
		configuration.setMaxAge(cors.getMaxAge());
		return configuration;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		return this.filter.filter(exchange, chain);
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

	/**
	 * Matches when {@code agent.web.cors.allowed-origins} lists an origin: CORS is closed
	 * otherwise.
	 */
	static final class OriginsAllowed extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			List<String> origins = Binder.get(context.getEnvironment())
				.bind("agent.web.cors.allowed-origins", Bindable.listOf(String.class))
				.orElse(List.of());
			return origins.isEmpty() ? ConditionOutcome.noMatch("no agent.web.cors.allowed-origins")
					: ConditionOutcome.match("agent.web.cors.allowed-origins " + origins);
		}

	}

}
