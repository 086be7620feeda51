package dev.agcore.autoconfigure.tool;

import java.util.List;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolRegistry;
import dev.agcore.tool.secret.SecretResolver;

/**
 * Refuses to start an application that resolves secrets while some tool has not said
 * which of its parameters may carry one. While resolution is off (no allow-list and no
 * resolver bean of the application's) undeclared tools are simply never given secrets.
 */
final class SecretDeclarations {

	private SecretDeclarations() {
	}

	static void check(ToolRegistry registry, SecretResolver resolver) {
		if (!resolves(resolver)) {
			return;
		}
		List<String> undeclared = registry.all()
			.stream()
			.filter((tool) -> !tool.metadata().secretsDeclared())
			.map((tool) -> tool.spec().name() + " (" + tool.source() + ")")
			.sorted()
			.toList();
		if (!undeclared.isEmpty()) {
			throw new AgentConfigurationException("Secret resolution is on (agent.secrets.allowed or a SecretResolver "
					+ "bean), but these tools do not declare which parameters may carry a secret reference: "
					+ String.join(", ", undeclared),
					"Add secrets = {} to each tool's @Tool if none of its parameters may carry a secret, or name "
							+ "them, e.g. secrets = {\"apiKey\"}.");
		}
	}

	private static boolean resolves(SecretResolver resolver) {
		if (resolver == SecretResolver.NONE) {
			return false;
		}
		return !(resolver instanceof EnvironmentSecretResolver environment) || environment.resolvesAny();
	}

}
