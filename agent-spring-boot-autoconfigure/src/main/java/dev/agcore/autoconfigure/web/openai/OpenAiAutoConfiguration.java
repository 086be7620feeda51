package dev.agcore.autoconfigure.web.openai;

import dev.agcore.audit.Auditor;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.web.AgentWebAutoConfiguration;
import dev.agcore.autoconfigure.web.PrincipalResolver;
import dev.agcore.autoconfigure.web.RequestAccess;
import dev.agcore.memory.AgentSessions;
import dev.agcore.autoconfigure.memory.SessionOwnerStore;
import dev.agcore.autoconfigure.memory.SessionOwnerStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.SessionOwners;
import dev.agcore.memory.SessionOwners;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.CallerResolver;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for an OpenAI-compatible endpoint,
 * when {@code agent.web.openai.enabled=true} in a reactive web application: under
 * {@code agent.web.openai.base-path}, {@code POST /v1/chat/completions} runs a turn of the
 * agent the request's {@code model} names, answered or streamed as the Chat Completions
 * API does, and {@code GET /v1/models} lists the agents. The caller, the agents' roles
 * and the sessions' owners are those of the agent endpoint ({@link RequestAccess});
 * {@code agent.web.allow-instructions} lets system messages reach the turn.
 * Replace the routes by defining a bean named {@code agentOpenAiRouterFunction}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { AgentAutoConfiguration.class, AgentWebAutoConfiguration.class })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnBooleanProperty("agent.web.openai.enabled")
@EnableConfigurationProperties({ AgentProperties.class, OpenAiProperties.class })
public final class OpenAiAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "agentOpenAiRouterFunction")
	RouterFunction<ServerResponse> agentOpenAiRouterFunction(AgentRegistry agents, AgentProperties properties,
			OpenAiProperties openAi, ObjectProvider<AgentSessions> sessions,
			ObjectProvider<PrincipalResolver> principals, ObjectProvider<SessionOwners> owners,
			ObjectProvider<KeyValueStore> keyValueStore,
			ObjectProvider<CallerResolver> callers, ObjectProvider<Auditor> auditor) {
		String basePath = openAi.getBasePath().isBlank() ? ""
				: AgentWebAutoConfiguration.basePath("agent.web.openai.base-path", openAi.getBasePath());
		RequestAccess access = RequestAccess.create(agents, properties,
				principals.getIfUnique(), SessionOwnerStore.owners(owners, keyValueStore),
				callers.getIfUnique(() -> CallerResolver.NONE).secured())
			.audited(auditor.getIfUnique(() -> Auditor.NONE));
		OpenAiHandler handler = new OpenAiHandler(agents, access, sessions.getIfUnique(),
				properties.getWeb().isAllowInstructions(), openAi.isExposeToolCalls());
		return RouterFunctions.route()
			.GET(basePath + "/v1/models", handler::models)
			.POST(basePath + "/v1/chat/completions", handler::completions)
			.onError(Throwable.class, handler::error)
			.build();
	}

}
