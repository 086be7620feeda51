package dev.agcore.autoconfigure.web;

import dev.agcore.AgentPrincipal;
import reactor.core.publisher.Mono;

import org.springframework.web.server.ServerWebExchange;

/**
 * Says who the caller of an agent route is. The default takes the exchange's principal,
 * which Spring Security's WebFlux filter chain sets (with the authentication's
 * authorities); define a bean of this type for other setups, such as a gateway that
 * passes the user in a header it has checked. The principal's name becomes the turn's
 * user id and the owner of the sessions it creates; its authorities decide the agents'
 * {@code roles} and {@code permissions.tool-roles}.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface PrincipalResolver {

	/**
	 * Return the authenticated caller of a request.
	 * @param exchange the request's exchange
	 * @return the caller; empty for an anonymous one
	 */
	Mono<AgentPrincipal> resolve(ServerWebExchange exchange);

}
