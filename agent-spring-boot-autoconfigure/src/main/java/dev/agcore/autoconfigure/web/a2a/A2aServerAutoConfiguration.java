package dev.agcore.autoconfigure.web.a2a;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.agcore.a2a.server.A2aTaskStore;
import dev.agcore.audit.Auditor;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.web.AgentWebAutoConfiguration;
import dev.agcore.autoconfigure.web.PrincipalResolver;
import dev.agcore.autoconfigure.web.RequestAccess;
import dev.agcore.autoconfigure.memory.SessionOwnerStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.SessionOwners;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.CallerResolver;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for an A2A server (protocol version
 * 0.3), when {@code agent.web.a2a.enabled=true} in a reactive web application and the A2A
 * SDK's spec types ({@code io.github.a2asdk:a2a-java-sdk-spec}) are present. Under
 * {@code agent.web.a2a.base-path}, each agent of {@code agent.web.a2a.agents} (all when
 * empty) has:
 * <ul>
 * <li>{@code GET /{agent}/.well-known/agent-card.json}: its Agent Card, whose URL is the
 * endpoint's ({@code agent.web.a2a.public-url}, else the request's);</li>
 * <li>{@code POST /{agent}}: its JSON-RPC endpoint ({@code message/send},
 * {@code message/stream}, {@code tasks/get}, {@code tasks/cancel}).</li>
 * </ul>
 * Tasks are kept in the application's {@link KeyValueStore}. The caller, the agents' roles
 * and the sessions' owners are those of the agent endpoint ({@link RequestAccess}).
 * Without the SDK's spec types on the class path, startup fails saying what to add.
 * Replace the routes by defining a bean named {@code agentA2aRouterFunction}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { AgentAutoConfiguration.class, AgentWebAutoConfiguration.class })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnBooleanProperty("agent.web.a2a.enabled")
@EnableConfigurationProperties({ AgentProperties.class, A2aServerProperties.class })
public final class A2aServerAutoConfiguration {

	/** The A2A SDK's spec types are needed, and missing. */
	static final String SDK_CLASS = "io.a2a.spec.AgentCard";

	@Bean
	@ConditionalOnClass(name = SDK_CLASS)
	@ConditionalOnMissingBean(name = "agentA2aRouterFunction")
	RouterFunction<ServerResponse> agentA2aRouterFunction(AgentRegistry agents, AgentProperties properties,
			A2aServerProperties a2a, ObjectProvider<PrincipalResolver> principals,
			ObjectProvider<SessionOwners> owners, ObjectProvider<KeyValueStore> keyValueStore,
			ObjectProvider<CallerResolver> callers, ObjectProvider<Auditor> auditor) {
		String basePath = AgentWebAutoConfiguration.basePath("agent.web.a2a.base-path", a2a.getBasePath());
		// the tasks in the application's one store, never a private one lost on restart
		KeyValueStore store = SessionOwnerStore.require(keyValueStore, "A2A task records (agent.web.a2a.enabled)");
		RequestAccess access = RequestAccess.create(agents, properties, principals.getIfUnique(),
				SessionOwnerStore.owners(owners, keyValueStore),
				callers.getIfUnique(() -> CallerResolver.NONE).secured())
			.audited(auditor.getIfUnique(() -> Auditor.NONE));
		A2aHandler handler = new A2aHandler(access, A2aTaskStore.of(store), exposed(agents, a2a.getAgents()),
				(name) -> description(properties, name), basePath, publicUrl(a2a.getPublicUrl()), a2a.getVersion());
		return RouterFunctions.route()
			.GET(basePath + "/{agent}/.well-known/agent-card.json", handler::card)
			.POST(basePath + "/{agent}", handler::rpc)
			.onError(Throwable.class, handler::error)
			.build();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingClass(SDK_CLASS)
	static class MissingSdk {

		MissingSdk() {
			throw new AgentConfigurationException(
					"agent.web.a2a.enabled=true needs the A2A SDK's protocol types, which are not on the class path",
					"Add the dependency io.github.a2asdk:a2a-java-sdk-spec (version " + "0.3.3.Final or a later 0.3.x), "
							+ "or set agent.web.a2a.enabled=false.");
		}

	}

	private static @Nullable Set<String> exposed(AgentRegistry agents, List<String> names) {
		if (names.isEmpty()) {
			return null;
		}
		List<String> known = agents.all().stream().map(Agent::name).toList();
		for (String name : names) {
			if (!known.contains(name)) {
				throw new AgentConfigurationException(
						"agent.web.a2a.agents names '" + name + "', which is no agent; known agents: " + known,
						"List agents of agent.agents in agent.web.a2a.agents, or leave it empty to expose all.");
			}
		}
		return Set.copyOf(new LinkedHashSet<>(names));
	}

	private static String description(AgentProperties properties, String name) {
		AgentProperties.AgentSpec spec = properties.getAgents().get(name);
		String description = (spec != null) ? spec.getDescription() : null;
		return (description != null && !description.isBlank()) ? description : "The agent " + name;
	}

	private static @Nullable String publicUrl(@Nullable String url) {
		if (url == null || url.isBlank()) {
			return null;
		}
		String stripped = url.strip();
		if (!stripped.startsWith("http://") && !stripped.startsWith("https://")) {
			throw new AgentConfigurationException(
					"agent.web.a2a.public-url must be an absolute http(s) URL (was '" + url + "')",
					"Set agent.web.a2a.public-url to the URL clients reach the application at, such as "
							+ "https://agents.example.com, or remove it to use the request's URL.");
		}
		while (stripped.endsWith("/")) {
			stripped = stripped.substring(0, stripped.length() - 1);
		}
		return stripped;
	}

}
