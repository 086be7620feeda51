package dev.agcore.autoconfigure.support;

import java.time.Duration;

import dev.agcore.autoconfigure.AgentConfigurationException;
import org.jspecify.annotations.Nullable;

/**
 * Checks of a single property value that fail startup naming the property and saying what
 * to set, shared by the auto-configurations.
 *
 * @since 0.1.0
 */
public final class PropertyChecks {

	private PropertyChecks() {
	}

	/**
	 * Check that a count property is at least 1.
	 * @param property the property, for the message
	 * @param value its value
	 * @return the value
	 */
	public static int atLeastOne(String property, int value) {
		if (value < 1) {
			throw new AgentConfigurationException(property + " must be at least 1 (was " + value + ")",
					"Set " + property + " to a positive number, or remove it to use the default.");
		}
		return value;
	}

	/**
	 * Check that a duration property is not negative; zero usually means "no limit".
	 * @param property the property, for the message
	 * @param value its value
	 * @return the value
	 */
	public static Duration notNegative(String property, Duration value) {
		if (value.isNegative()) {
			throw new AgentConfigurationException(property + " must not be negative (was " + value + ")",
					"Set " + property + " to a positive duration, 0 for no limit, or remove it to use the default.");
		}
		return value;
	}

	/**
	 * Check that a duration property is positive.
	 * @param property the property, for the message
	 * @param value its value
	 * @return the value
	 */
	public static Duration positive(String property, Duration value) {
		if (value.isNegative() || value.isZero()) {
			throw new AgentConfigurationException(property + " must be positive (was " + value + ")",
					"Set " + property + " to a positive duration, or remove it to use the default.");
		}
		return value;
	}

	/**
	 * Check that a value holds no {@code ${...}} placeholder that could not be resolved:
	 * Spring leaves such a placeholder as it is, and a header or environment variable
	 * sent with it would only fail later, naming no property.
	 * @param property the property, for the message
	 * @param value its value, or {@code null}
	 * @return the value
	 */
	public static @Nullable String resolved(String property, @Nullable String value) {
		if (value != null && value.contains("${")) {
			String variable = value.replaceAll("(?s).*?\\$\\{([^}:]*).*", "$1");
			throw new AgentConfigurationException(property + " holds the unresolved placeholder ${" + variable + "}",
					"Set the environment variable or property " + variable + ", or give the placeholder a default, "
							+ "${" + variable + ":default}.");
		}
		return value;
	}

}
