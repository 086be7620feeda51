package dev.agcore.testing.replay;

/**
 * A request differs from the one recorded in the cassette; the message holds a diff of
 * the two, recorded lines with {@code -}, actual ones with {@code +}.
 */
public class ReplayMismatchError extends AssertionError {

	ReplayMismatchError(String message) {
		super(message);
	}

}
