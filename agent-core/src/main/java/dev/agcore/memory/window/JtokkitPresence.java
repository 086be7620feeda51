package dev.agcore.memory.window;

/**
 * Whether the optional jtokkit library is on the class path; its classes are only touched
 * when it is.
 */
final class JtokkitPresence {

	static final boolean PRESENT = isPresent();

	private JtokkitPresence() {
	}

	private static boolean isPresent() {
		try {
			Class.forName("com.knuddels.jtokkit.Encodings", false, JtokkitPresence.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

}
