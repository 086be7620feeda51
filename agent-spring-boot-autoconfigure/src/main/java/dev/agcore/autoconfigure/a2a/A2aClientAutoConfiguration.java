package dev.agcore.autoconfigure.a2a;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.agcore.a2a.client.A2aRemote;
import dev.agcore.a2a.client.A2aRemoteAgents;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.agent.UnknownPropertyCheck;
import dev.agcore.autoconfigure.tool.AgentToolSource;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.tool.ToolRegistry;
import io.a2a.spec.AgentCard;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the A2A client, when the A2A
 * SDK's spec types are on the class path and {@code agent.a2a.remotes} has entries:
 * <ul>
 * <li>the {@link A2aRemoteAgents}, each remote checked first so that a mistake fails
 * startup naming its property; building it does no I/O;</li>
 * <li>an {@link AgentToolSource} that gives every configured agent the remotes as tools
 * named after them, within its {@code tools} scope (all of them when the agent has no
 * {@code tools} list);</li>
 * <li>a listener that starts fetching the Agent Cards in the background once the
 * application is ready, off the startup path.</li>
 * </ul>
 * Requests go through the application's {@link WebClient.Builder} (cloned), as the model
 * providers' do.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration")
@ConditionalOnClass({ AgentCard.class, WebClient.class })
@Conditional(OnA2aRemotesCondition.class)
@EnableConfigurationProperties(A2aClientProperties.class)
public final class A2aClientAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	A2aRemoteAgents a2aRemoteAgents(A2aClientProperties properties, Environment environment,
			ObjectProvider<WebClient.Builder> webClientBuilder, ObjectProvider<ToolRegistry> toolRegistry) {
		checkKeys(Binder.get(environment), properties);
		ToolRegistry tools = toolRegistry.getIfAvailable();
		List<A2aRemote> remotes = new ArrayList<>();
		properties.getRemotes().forEach((name, remote) -> {
			String prefix = OnA2aRemotesCondition.PREFIX + "." + name;
			if (tools != null && tools.find(name).isPresent()) {
				throw new AgentConfigurationException(
						prefix + ": the remote agent '" + name + "' is a tool of that name, which the application "
								+ "has already (" + tools.find(name).get().source() + ")",
						"Rename the remote or the application's tool.");
			}
			remotes.add(remote(prefix, name, remote));
		});
		return new A2aRemoteAgents(remotes, webClientBuilder.getIfAvailable(WebClient::builder).clone().build());
	}

	@Bean
	@ConditionalOnMissingBean(name = "a2aAgentToolSource")
	AgentToolSource a2aAgentToolSource(A2aRemoteAgents remotes) {
		return new A2aAgentToolSource(remotes);
	}

	@Bean
	A2aCardPrefetch a2aCardPrefetch(A2aRemoteAgents remotes) {
		return new A2aCardPrefetch(remotes);
	}

	private static A2aRemote remote(String prefix, String name, A2aClientProperties.Remote remote) {
		if (!StringUtils.hasText(remote.getUrl())) {
			throw new AgentConfigurationException(prefix + ".url is required",
					"Set " + prefix + ".url to the remote agent's base URL or the URL of its Agent Card.");
		}
		URI url;
		try {
			url = URI.create(remote.getUrl().strip());
		}
		catch (IllegalArgumentException ex) {
			throw new AgentConfigurationException(prefix + ".url is not a URL: " + ex.getMessage(),
					"Set " + prefix + ".url to an http or https URL, such as https://agents.example.com/a2a.", ex);
		}
		for (Map.Entry<String, String> header : remote.getHeaders().entrySet()) {
			if (!StringUtils.hasText(header.getKey()) || header.getValue() == null) {
				throw new AgentConfigurationException(prefix + ".headers has an empty name or value",
						"Give each header of " + prefix + ".headers a name and a value.");
			}
		}
		try {
			return new A2aRemote(name, url, remote.getHeaders(), remote.getTimeout(), remote.getDescription());
		}
		catch (IllegalArgumentException ex) {
			String property = ex.getMessage().startsWith("the name") ? prefix
					: ex.getMessage().startsWith("the url") ? prefix + ".url" : prefix + ".timeout";
			throw new AgentConfigurationException(property + ": " + ex.getMessage(),
					"Remotes are named as tools are (letters, digits, '_' and '-'), reached over http or https, "
							+ "and given a positive timeout such as 2m.",
					ex);
		}
	}

	/** A misspelled key would silently leave a default in place: fail naming it. */
	private static void checkKeys(Binder binder, A2aClientProperties properties) {
		Set<String> unknown = new LinkedHashSet<>(UnknownPropertyCheck.unknown(binder, OnA2aRemotesCondition.PREFIX,
				properties.getRemotes().keySet(), A2aClientProperties.Remote.class));
		UnknownPropertyCheck.check(unknown);
	}

}
