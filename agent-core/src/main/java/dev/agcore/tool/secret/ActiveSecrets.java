package dev.agcore.tool.secret;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The secrets resolved for the tool calls running on the current thread, so that what a
 * tool calls can keep them out of what it records: {@code @Traceable} scrubs the
 * arguments it records with them. The agent runtime opens a scope around each tool call
 * whose arguments held secret references. Work a tool hands to a thread of its own does
 * not see them, unless it takes a {@link #snapshot()} along.
 */
public final class ActiveSecrets {

	private static final ThreadLocal<@Nullable Snapshot> current = new ThreadLocal<>();

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
		Snapshot outer = current.get();
		List<SecretReferences.Resolution> resolutions = new ArrayList<>();
		resolutions.add(resolution);
		if (outer != null) {
			resolutions.addAll(outer.resolutions);
		}
		current.set(new Snapshot(List.copyOf(resolutions)));
		return new Scope(outer);
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
		return snapshot().scrub(text);
	}

	/**
	 * Return the secrets active on this thread, to scrub with later, on any thread: when
	 * a publisher completes, for example.
	 * @return the active secrets; none when no tool call with secrets is running here
	 */
	public static Snapshot snapshot() {
		Snapshot snapshot = current.get();
		return (snapshot != null) ? snapshot : Snapshot.NONE;
	}

	/**
	 * The secrets active on a thread at one moment.
	 */
	public static final class Snapshot {

		static final Snapshot NONE = new Snapshot(List.of());

		private final List<SecretReferences.Resolution> resolutions;

		private Snapshot(List<SecretReferences.Resolution> resolutions) {
			this.resolutions = resolutions;
		}

		/**
		 * Return whether there is any secret to scrub.
		 * @return whether this snapshot holds secrets
		 */
		public boolean isEmpty() {
			return this.resolutions.isEmpty();
		}

		/**
		 * Replace each secret with its placeholder.
		 * @param text the text
		 * @return the scrubbed text
		 */
		public String scrub(String text) {
			String scrubbed = text;
			for (SecretReferences.Resolution resolution : this.resolutions) {
				scrubbed = resolution.scrub(scrubbed);
			}
			return scrubbed;
		}

	}

	/**
	 * Secrets made active by {@link ActiveSecrets#open}; closing makes them inactive.
	 */
	public static final class Scope implements AutoCloseable {

		static final Scope NONE = new Scope(null);

		private final @Nullable Snapshot outer;

		private Scope(@Nullable Snapshot outer) {
			this.outer = outer;
		}

		/**
		 * Restore the secrets that were active on this thread before.
		 */
		@Override
		public void close() {
			if (this == NONE) {
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
