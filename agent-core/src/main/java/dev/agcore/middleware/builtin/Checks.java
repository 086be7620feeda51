package dev.agcore.middleware.builtin;

import java.time.Duration;
import java.util.Objects;

/**
 * Validation of builder arguments, with messages that name the setting.
 */
final class Checks {

	private Checks() {
	}

	static int atLeastOne(int value, String name) {
		if (value < 1) {
			throw new IllegalArgumentException("'" + name + "' must be at least 1, was " + value);
		}
		return value;
	}

	static long atLeastOne(long value, String name) {
		if (value < 1) {
			throw new IllegalArgumentException("'" + name + "' must be at least 1, was " + value);
		}
		return value;
	}

	static Duration positive(Duration value, String name) {
		Objects.requireNonNull(value, "'" + name + "' must not be null");
		if (value.isNegative() || value.isZero()) {
			throw new IllegalArgumentException("'" + name + "' must be positive, was " + value);
		}
		return value;
	}

	static String notBlank(String value, String name) {
		Objects.requireNonNull(value, "'" + name + "' must not be null");
		if (value.isBlank()) {
			throw new IllegalArgumentException("'" + name + "' must not be blank");
		}
		return value;
	}

}
