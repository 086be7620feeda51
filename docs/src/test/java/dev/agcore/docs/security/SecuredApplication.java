package dev.agcore.docs.security;

// tag::chain[]
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;

import static org.springframework.security.config.Customizer.withDefaults;

/**
 * The application of docs/security.md: the agent routes behind the minimal Spring
 * Security chain (HTTP basic; users alice and bob), and the tool that tells who calls.
 */
@Configuration(proxyBeanMethods = false)
public class SecuredApplication {

	@Bean
	SecurityWebFilterChain securityWebFilterChain(ServerHttpSecurity http) {
		return http.authorizeExchange((exchanges) -> exchanges.anyExchange().authenticated())
			.httpBasic(withDefaults())
			// a stateless API authenticated on every request; keep CSRF for cookie sessions
			.csrf(ServerHttpSecurity.CsrfSpec::disable)
			.build();
	}

	@Bean
	MapReactiveUserDetailsService users() {
		return new MapReactiveUserDetailsService(
				User.withUsername("alice").password("{noop}alice-pw").roles("USER").build(),
				User.withUsername("bob").password("{noop}bob-pw").roles("USER").build());
	}

	@Bean
	WhoTools whoTools() {
		return new WhoTools();
	}

}
// end::chain[]
