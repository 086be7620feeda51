package dev.agcore.benchmarks.startup;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How an application of the {@link StartupHarness} is launched.
 */
public enum StartupMode {

	/** On the JVM, its bean definitions found and its conditions evaluated at startup. */
	JVM("jvm", "JVM", List.of()),

	/**
	 * On the JVM with the classes Spring AOT generated at build time ({@code process-aot}):
	 * bean definitions as code, conditions evaluated when the application was built.
	 */
	AOT("aot", "AOT-processed", List.of("-Dspring.aot.enabled=true"));

	private final String id;

	private final String label;

	private final List<String> jvmArguments;

	StartupMode(String id, String label, List<String> jvmArguments) {
		this.id = id;
		this.label = label;
		this.jvmArguments = jvmArguments;
	}

	public String id() {
		return this.id;
	}

	public String label() {
		return this.label;
	}

	/**
	 * The JVM arguments that select this mode.
	 * @return the arguments
	 */
	public List<String> jvmArguments() {
		return this.jvmArguments;
	}

	static StartupMode named(String id) {
		return Arrays.stream(values())
			.filter((mode) -> mode.id.equals(id))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("Unknown mode '" + id + "' in '--modes' (known: "
					+ Arrays.stream(values()).map(StartupMode::id).collect(Collectors.joining(", ")) + ")"));
	}

}
