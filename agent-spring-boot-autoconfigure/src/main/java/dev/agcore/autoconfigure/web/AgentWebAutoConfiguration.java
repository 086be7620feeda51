package dev.agcore.autoconfigure.web;

import java.util.List;

import dev.agcore.audit.Auditor;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.run.RunAutoConfiguration;
import dev.agcore.autoconfigure.run.AgentRunExecutor;
import dev.agcore.autoconfigure.run.Runs;
import dev.agcore.autoconfigure.memory.SessionOwnerStore;
import dev.agcore.memory.AgentSessions;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.SessionOwners;
import dev.agcore.model.ChatModelRegistry;
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
import org.springframework.context.annotation.Conditional;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the agents' HTTP endpoint, when
 * {@code agent.web.enabled=true} in a reactive web application. Under
 * {@code agent.web.base-path}:
 * <ul>
 * <li>{@code GET /} lists the agents;</li>
 * <li>{@code GET /models} lists the models of the {@link ChatModelRegistry}: name,
 * provider, model, context window, price and capabilities;</li>
 * <li>{@code POST /{agent}/invoke} runs a turn and answers with its result;</li>
 * <li>{@code POST /{agent}/stream} runs a turn and streams its events as server-sent
 * events;</li>
 * <li>{@code GET /{agent}/sessions/{sessionId}/messages} returns a conversation;</li>
 * <li>{@code GET /{agent}/sessions/{sessionId}/pending} returns the turn paused for approval, if any;</li>
 * <li>{@code GET /{agent}/tools} lists the tools in the agent's scope with their
 * metadata and the JSON schema the model is sent;</li>
 * <li>{@code POST /{agent}/sessions/{sessionId}/resume} continues a turn paused for
 * approval with a decision per pending tool call, and answers as {@code invoke} does;</li>
 * <li>{@code POST /{agent}/sessions/{sessionId}/resume/stream} does the same, streaming
 * its events as {@code stream} does.</li>
 * <li>{@code GET /-/sessions?userId=...&offset=0&limit=20} lists a user's sessions,
 * the one with the latest turn first (the user is the authenticated principal when there
 * is one);</li>
 * <li>{@code DELETE /-/sessions/{sessionId}?userId=...} deletes a session: its
 * conversation, paused turn, session memory and entry in the user's list.</li>
 * <li>with background runs ({@link RunAutoConfiguration}): {@code POST /{agent}/runs}
 * submits a run (202), {@code GET /{agent}/runs?sessionId=...} lists a session's runs,
 * {@code GET /{agent}/runs/{runId}} gives one, {@code GET /{agent}/runs/{runId}/events}
 * streams its events (resumable with {@code Last-Event-ID}),
 * {@code POST /{agent}/runs/{runId}/cancel} and {@code .../resume}; the same under
 * {@code agent.web.workflows-path} for workflows.</li>
 * </ul>
 * The session routes sit under {@code -}, which no agent route can match as they have
 * more or fewer segments or another method.
 * <p>
 * Security (see docs/security.md): the routes open nothing; the application's
 * {@code SecurityWebFilterChain} covers them as any route. The caller is the
 * {@link PrincipalResolver}'s (by default the exchange's principal): its sessions are its
 * own, anyone else's answer 404; an agent's {@code roles} hide it from callers without
 * one; {@code agent.web.cors.*} opens the routes to other origins.
 * Replace the routes by defining a bean named {@code agentRouterFunction}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { AgentAutoConfiguration.class, RunAutoConfiguration.class })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnBooleanProperty("agent.web.enabled")
@EnableConfigurationProperties(AgentProperties.class)
public final class AgentWebAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "agentRouterFunction")
	RouterFunction<ServerResponse> agentRouterFunction(AgentRegistry agents, AgentProperties properties,
			ObjectProvider<AgentSessions> sessions, ObjectProvider<ChatModelRegistry> models,
			ObjectProvider<Runs> runs, ObjectProvider<PrincipalResolver> principals,
			ObjectProvider<SessionOwners> owners, ObjectProvider<KeyValueStore> keyValueStore,
			ObjectProvider<CallerResolver> callers, ObjectProvider<Auditor> auditor) {
		String basePath = basePath("agent.web.base-path", properties.getWeb().getBasePath());
		RequestAccess access = RequestAccess.create(agents, properties,
				principals.getIfUnique(ExchangePrincipalResolver::new), SessionOwnerStore.owners(owners, keyValueStore),
				callers.getIfUnique(() -> CallerResolver.NONE).secured())
			.audited(auditor.getIfUnique(() -> Auditor.NONE));
		AgentHandler handler = new AgentHandler(agents, access, properties.getWeb().isAllowInstructions());
		RouterFunctions.Builder routes = RouterFunctions.route();
		Runs backgroundRuns = runs.getIfUnique();
		if (backgroundRuns != null) {
			RunHandler runHandler = new RunHandler(backgroundRuns, agents, handler,
					properties.getWeb().isAllowInstructions());
			routes.add(runRoutes(runHandler, basePath,
					basePath("agent.web.workflows-path", properties.getWeb().getWorkflowsPath())));
		}
		AgentSessions agentSessions = sessions.getIfUnique();
		if (agentSessions != null) {
			// before the agent routes: "-" is not an agent
			SessionHandler sessionHandler = new SessionHandler(agentSessions, access);
			routes.GET(basePath + "/-/sessions", sessionHandler::list)
				.DELETE(basePath + "/-/sessions/{sessionId}", sessionHandler::delete);
		}
		ChatModelRegistry registry = models.getIfUnique();
		if (registry != null) {
			// one segment: no agent route (all of two or more) can match it
			routes.GET(basePath + "/models", (request) -> ServerResponse.ok()
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(registry.descriptors()));
		}
		return routes
			.GET(basePath.isEmpty() ? "/" : basePath, handler::list)
			.POST(basePath + "/{agent}/invoke", handler::invoke)
			.POST(basePath + "/{agent}/stream", handler::stream)
			.GET(basePath + "/{agent}/sessions/{sessionId}/messages", handler::messages)
			.GET(basePath + "/{agent}/sessions/{sessionId}/pending", handler::pending)
			.GET(basePath + "/{agent}/tools", handler::tools)
			.POST(basePath + "/{agent}/sessions/{sessionId}/resume", handler::resume)
			.POST(basePath + "/{agent}/sessions/{sessionId}/resume/stream", handler::resumeStream)
			.onError(Throwable.class, handler::error)
			.build();
	}

	// the run routes have their own error handler: run errors first, then as the agent routes
	private static RouterFunction<ServerResponse> runRoutes(RunHandler handler, String agents, String workflows) {
		String agentRuns = agents + "/{agent}/runs";
		String workflowRuns = workflows + "/{workflow}/runs";
		String agent = AgentRunExecutor.KIND;
		String workflow = RunHandler.WORKFLOW;
		return RouterFunctions.route()
			.POST(agentRuns, handler::submitAgentRun)
			.GET(agentRuns, (request) -> handler.list(request, agent))
			.GET(agentRuns + "/{runId}", (request) -> handler.get(request, agent))
			.GET(agentRuns + "/{runId}/events", (request) -> handler.events(request, agent))
			.POST(agentRuns + "/{runId}/cancel", (request) -> handler.cancel(request, agent))
			.POST(agentRuns + "/{runId}/resume", (request) -> handler.resume(request, agent))
			.POST(workflowRuns, handler::submitWorkflowRun)
			.GET(workflowRuns, (request) -> handler.list(request, workflow))
			.GET(workflowRuns + "/{runId}", (request) -> handler.get(request, workflow))
			.GET(workflowRuns + "/{runId}/events", (request) -> handler.events(request, workflow))
			.POST(workflowRuns + "/{runId}/cancel", (request) -> handler.cancel(request, workflow))
			.POST(workflowRuns + "/{runId}/resume", (request) -> handler.resume(request, workflow))
			.onError(Throwable.class, handler::error)
			.build();
	}

	/**
	 * Answer CORS requests to the agent and workflow routes as {@code agent.web.cors.*}
	 * says, when it allows an origin; before Spring Security's filter chain, so a
	 * preflight request, which carries no credentials, is answered without them.
	 */
	@Bean
	@ConditionalOnMissingBean(name = "agentCorsWebFilter")
	@Conditional(AgentCors.OriginsAllowed.class)
	AgentCors agentCorsWebFilter(AgentProperties properties) {
		return new AgentCors(properties.getWeb().getCors(),
				List.of(basePath("agent.web.base-path", properties.getWeb().getBasePath()),
						basePath("agent.web.workflows-path", properties.getWeb().getWorkflowsPath())));
	}

	/**
	 * A base path property, checked and without a trailing slash.
	 * @param property the property's name, for the error
	 * @param basePath its value
	 * @return the path, empty for the root
	 */
	public static String basePath(String property, String basePath) {
		String path = basePath.strip();
		if (!path.startsWith("/") || path.contains("{")) {
			throw new AgentConfigurationException(
					property + " must be a path starting with '/' (was '" + basePath + "')",
					"Set " + property + " to a path such as /agents.");
		}
		while (path.endsWith("/")) {
			path = path.substring(0, path.length() - 1);
		}
		return path;
	}

}
