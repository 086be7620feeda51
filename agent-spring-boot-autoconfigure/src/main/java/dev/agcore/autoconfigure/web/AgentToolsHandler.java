package dev.agcore.autoconfigure.web;

import dev.agcore.autoconfigure.tool.ToolDescriptor;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * Handles {@code GET {base-path}/{agent}/tools}: the tools in the agent's scope, each
 * with its metadata and the JSON schema the model is sent.
 */
final class AgentToolsHandler {

	private final AgentRegistry agents;

	AgentToolsHandler(AgentRegistry agents) {
		this.agents = agents;
	}

	Mono<ServerResponse> tools(ServerRequest request) {
		String name = request.pathVariable("agent");
		return this.agents.find(name)
			.map((agent) -> ServerResponse.ok()
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(agent.toolCallbacks().stream().map(ToolDescriptor::of).toList()))
			.orElseGet(() -> ServerResponse.status(HttpStatus.NOT_FOUND)
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(new AgentViews.ErrorView("not_found", "No agent named '" + name + "'; known agents: "
						+ this.agents.all().stream().map(Agent::name).toList())));
	}

}
