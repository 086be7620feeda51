package dev.agcore.a2a.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolSource;

import org.springframework.web.reactive.function.client.WebClient;

/**
 * The remote A2A agents of an application, each a tool
 * ({@link A2aRemoteAgentTool}) named after it. A {@link ToolSource}: agents given it ask
 * for the tools on every turn, so a tool's description follows its Agent Card once the
 * card is fetched. Building it and listing its tools do no I/O; asking for the tools
 * starts fetching the cards not yet known, in the background.
 */
public final class A2aRemoteAgents implements ToolSource {

	private final Map<String, A2aRemoteAgentTool> tools;

	private final List<String> names;

	/**
	 * Create the tools of remote agents.
	 * @param remotes the remotes, with distinct names
	 * @param webClient the client their requests go through
	 * @throws IllegalArgumentException if two remotes have the same name
	 */
	public A2aRemoteAgents(List<A2aRemote> remotes, WebClient webClient) {
		Objects.requireNonNull(webClient, "'webClient' must not be null");
		Map<String, A2aRemoteAgentTool> tools = new LinkedHashMap<>();
		for (A2aRemote remote : remotes) {
			if (tools.put(remote.name(), new A2aRemoteAgentTool(remote, webClient)) != null) {
				throw new IllegalArgumentException("Two A2A remotes are named '" + remote.name() + "'");
			}
		}
		this.tools = Map.copyOf(tools);
		this.names = List.copyOf(tools.keySet());
	}

	/**
	 * Return the names of the remotes, which are their tools' names.
	 * @return the names, in the order given
	 */
	public List<String> names() {
		return this.names;
	}

	/**
	 * Return the tool of a remote.
	 * @param name the remote's name
	 * @return the tool, or empty if there is no such remote
	 */
	public Optional<A2aRemoteAgentTool> tool(String name) {
		return Optional.ofNullable(this.tools.get(name));
	}

	/** Start fetching, in the background, every Agent Card not yet known. */
	public void prefetch() {
		this.tools.values().forEach(A2aRemoteAgentTool::prefetch);
	}

	@Override
	public List<ToolCallback> tools() {
		List<ToolCallback> tools = new ArrayList<>(this.names.size());
		for (String name : this.names) {
			A2aRemoteAgentTool tool = this.tools.get(name);
			tool.prefetch();
			tools.add(tool);
		}
		return tools;
	}

}
