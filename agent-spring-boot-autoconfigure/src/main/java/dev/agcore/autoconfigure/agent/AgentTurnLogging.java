package dev.agcore.autoconfigure.agent;

import java.util.List;

import dev.agcore.runtime.TurnSummaryListener;

import org.springframework.core.env.Environment;

/**
 * How the configured agents log and report their turns: whether the DEBUG lines of model
 * and tool calls hold content ({@value #CAPTURE_CONTENT}), and the
 * {@link TurnSummaryListener} beans told about each finished turn.
 *
 * @param captureContent whether content is logged
 * @param listeners the listeners
 */
record AgentTurnLogging(boolean captureContent, List<TurnSummaryListener> listeners) {

	/** The property that switches content capture on, for traces and logs alike. */
	static final String CAPTURE_CONTENT = "agent.observations.capture-content";

	static AgentTurnLogging of(Environment environment, List<TurnSummaryListener> listeners) {
		// read as a flag, not through a properties class: the observation settings own it
		return new AgentTurnLogging(environment.getProperty(CAPTURE_CONTENT, Boolean.class, false), listeners);
	}

}
