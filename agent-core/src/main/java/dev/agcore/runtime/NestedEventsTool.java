package dev.agcore.runtime;

import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;

/**
 * A tool that runs another agent, such as a remote A2A agent, and passes on what that
 * agent emits while it works: called by an agent's turn, it gets the turn's
 * {@link NestedEvents}, whose events reach the turn's stream as
 * {@link AgentEvent.SubAgentEvent}s of the call, as a {@link SubAgentTool}'s do.
 * {@link #call(String, ToolContext)} (outside a turn) runs it with
 * {@link NestedEvents#NONE}.
 */
public interface NestedEventsTool extends ToolCallback {

	/**
	 * Run the tool within an agent's turn.
	 * @param arguments the arguments as the model sent them
	 * @param context the runtime values of this call
	 * @param events where the events of the agent the tool runs go
	 * @return the result as text for the model
	 * @throws Exception anything the tool throws; fed back to the model
	 */
	String call(String arguments, ToolContext context, NestedEvents events) throws Exception;

	@Override
	default String call(String arguments, ToolContext context) throws Exception {
		return call(arguments, context, NestedEvents.NONE);
	}

}
