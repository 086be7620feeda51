package dev.agcore.observation;

import org.jspecify.annotations.Nullable;

/** The {@code error.type} of a failure: its class's simple name, bounded by the code. */
final class Errors {

	private Errors() {
	}

	static String type(@Nullable Throwable error) {
		if (error == null) {
			return AgentObservationDocumentation.NONE;
		}
		String name = error.getClass().getSimpleName();
		return name.isEmpty() ? error.getClass().getName() : name;
	}

}
