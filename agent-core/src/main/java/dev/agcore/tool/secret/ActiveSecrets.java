package dev.agcore.tool.secret;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The secrets resolved for the tool calls running on the current thread, so that what a
 * tool calls can keep them out of what it records: {@code @Traceable} scrubs recorded
 * arguments with {@link #scrub(String)}. The agent runtime opens a scope around each
 * tool call whose arguments held secret references; a tool that hands work to another
 * thread takes its secrets out of reach of this class.
 */
public final class ActiveSecrets {

	private static final ThreadLocal<@Nullable Scope> current = new ThreadLocal<>();

	private ActiveSecrets() {
	}

	/**
	 * Make a tool call's secrets active on this thread until the returned scope is
	 * closed.
	 * @param resolution the call's resolved arguments
	 * @return the scope, to close on the same thread
	 */
	public static Scope open(SecretReferences.Resolution resolution) {
		Objects.requireNonNull(resolution, "'resolution' must not be null");
		if (resolution.secrets().isEmpty()) {
			return Scope.NONE;
		}
		Scope scope = new Scope(resolution, current.get());
		current.set(scope);
		return scope;
	}

	/**
	 * Return whether a tool call with secrets is running on this thread.
	 * @return whether any secret is active
	 */
	public static boolean isActive() {
		return current.get() != null;
	}

	/**
	 * Replace every active secret in a text with its placeholder, in all the forms
	 * {@link SecretReferences.Resolution#scrub} finds.
	 * @param text the text
	 * @return the scrubbed text; the text itself when no secret is active
	 */
	public static String scrub(String text) {
		String scrubbed = text;
		for (Scope scope = current.get(); scope != null; scope = scope.outer) {
			if (scope.resolution != null) {
				scrubbed = scope.resolution.scrub(scrubbed);
			}
		}
		return scrubbed;
	}

	/**
	 * Secrets made active by {@link ActiveSecrets#open}; closing makes them inactive.
	 */
	public static final class Scope implements AutoCloseable {

		static final Scope NONE = new Scope(null, null);

		private final SecretReferences.@Nullable Resolution resolution;

		private final @Nullable Scope outer;

		private Scope(SecretReferences.@Nullable Resolution resolution, @Nullable Scope outer) {
			this.resolution = resolution;
			this.outer = outer;
		}

		@Override
		public void close() {
			if (this.resolution == null) {
				return;
			}
			if (this.outer != null) {
				current.set(this.outer);
			}
			else {
				current.remove();
			}
		}

	}

}
