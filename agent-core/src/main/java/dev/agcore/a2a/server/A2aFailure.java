package dev.agcore.a2a.server;

import io.a2a.spec.InvalidParamsError;
import io.a2a.spec.JSONRPCError;
import io.a2a.spec.TaskNotFoundError;

/**
 * A request the server answers with a JSON-RPC error (the SDK's errors are
 * {@link Error}s, which are not thrown through a reactive pipeline).
 */
final class A2aFailure extends RuntimeException {

	private final transient JSONRPCError error;

	A2aFailure(JSONRPCError error) {
		super(error.getMessage(), null, false, false);
		this.error = error;
	}

	JSONRPCError error() {
		return this.error;
	}

	static A2aFailure invalidParams(String message) {
		return new A2aFailure(new InvalidParamsError(message));
	}

	static A2aFailure taskNotFound(String taskId) {
		return new A2aFailure(new TaskNotFoundError(null, "No task '" + taskId + "'", null));
	}

}
