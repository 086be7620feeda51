package dev.agcore.runtime;

/**
 * Where a tool that runs another agent, local or remote, passes on what that agent emits
 * while it works, so that it reaches the calling turn's stream nested as
 * {@link AgentEvent.SubAgentEvent}s between the call's {@code tool_call} and
 * {@code tool_result} (see {@link NestedEventsTool}). Thread-safe: the tool reports from
 * whatever thread its agent's events arrive on.
 */
public interface NestedEvents {

	/** Events that go nowhere, for a tool called outside an agent's turn. */
	NestedEvents NONE = new NestedEvents() {

		@Override
		public boolean streaming() {
			return false;
		}

		@Override
		public void event(String agent, AgentEvent event) {
		}

	};

	/**
	 * Return whether the calling turn is streamed, so the agent the tool runs should be
	 * streamed too; when not, {@link #event} passes nothing on.
	 * @return whether events are wanted
	 */
	boolean streaming();

	/**
	 * Pass on an event of the agent the tool runs.
	 * @param agent the name the event is nested under, such as the tool's name
	 * @param event what the agent emitted
	 */
	void event(String agent, AgentEvent event);

}
