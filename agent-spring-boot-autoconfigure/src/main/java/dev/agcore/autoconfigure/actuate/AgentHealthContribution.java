package dev.agcore.autoconfigure.actuate;

import java.util.Objects;

import org.springframework.boot.health.contributor.ReactiveHealthContributor;

/**
 * A part of the {@code agents} health contributor, next to its {@code stores}: the MCP
 * servers ({@code mcp}) or the providers that opted in ({@code models}). Auto-configurations
 * contribute them as beans; a bean of your own adds a part of yours.
 *
 * @param name the part's name under {@code agents}
 * @param contributor its health
 * @since 0.1.0
 */
public record AgentHealthContribution(String name, ReactiveHealthContributor contributor) {

	public AgentHealthContribution {
		Objects.requireNonNull(name, "'name' must not be null");
		Objects.requireNonNull(contributor, "'contributor' must not be null");
	}

}
