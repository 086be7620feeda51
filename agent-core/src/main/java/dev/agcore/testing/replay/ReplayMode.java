package dev.agcore.testing.replay;

import java.util.Locale;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

/**
 * Whether a {@link CassetteChatModel} calls the real model and records, or replays.
 */
public enum ReplayMode {

	/** Call the real model and write every interaction to the cassette, replacing it. */
	RECORD,

	/** Answer from the cassette only; the real model is never created. */
	REPLAY,

	/**
	 * Replay when the cassette exists, record when it does not (refused when the
	 * environment variable {@code CI} is {@code true}: CI never calls a real provider).
	 */
	AUTO;

	/** The system property that sets the mode: {@code record}, {@code replay} or {@code auto}. */
	public static final String PROPERTY = "agcore.replay.mode";

	/** The environment variable read when the system property is not set. */
	public static final String ENVIRONMENT_VARIABLE = "AGCORE_REPLAY_MODE";

	/**
	 * Return the mode set by {@value #PROPERTY} or {@value #ENVIRONMENT_VARIABLE}.
	 * @return the mode, {@link #AUTO} when neither is set
	 */
	public static ReplayMode configured() {
		return configured(System::getProperty, System::getenv);
	}

	static ReplayMode configured(UnaryOperator<@Nullable String> properties, UnaryOperator<@Nullable String> environment) {
		String value = properties.apply(PROPERTY);
		String source = PROPERTY;
		if (value == null || value.isBlank()) {
			value = environment.apply(ENVIRONMENT_VARIABLE);
			source = ENVIRONMENT_VARIABLE;
		}
		if (value == null || value.isBlank()) {
			return AUTO;
		}
		try {
			return valueOf(value.strip().toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(
					source + " must be record, replay or auto (was '" + value + "')", ex);
		}
	}

}
