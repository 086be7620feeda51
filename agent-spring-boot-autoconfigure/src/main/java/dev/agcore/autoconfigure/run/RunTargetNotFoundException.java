package dev.agcore.autoconfigure.run;

import java.util.List;

/**
 * A run was submitted for a kind or a target (agent, workflow) that no executor knows.
 * The message names the known ones.
 *
 * @since 0.1.0
 */
public class RunTargetNotFoundException extends RuntimeException {

	public RunTargetNotFoundException(String kind, String target, List<String> known) {
		super("No " + kind + " named '" + target + "'; known: " + known);
	}

	public RunTargetNotFoundException(String kind, List<String> knownKinds) {
		super("No executor runs runs of kind '" + kind + "'; known kinds: " + knownKinds);
	}

}
