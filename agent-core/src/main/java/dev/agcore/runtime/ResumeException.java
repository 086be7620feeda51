package dev.agcore.runtime;

import dev.agcore.AgentException;

/**
 * A turn cannot be started or resumed as asked: there is no paused turn to resume, the
 * decisions do not match its pending calls, or a paused turn blocks a new one.
 */
public class ResumeException extends AgentException {

	public ResumeException(String message) {
		super(message);
	}

}
