package dev.agcore.benchmarks.startup;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Properties;

/**
 * The two applications the {@link StartupHarness} compares, built by the modules
 * {@code benchmarks/startup/baseline} and {@code benchmarks/startup/agent}. They share
 * their main class, their controller's route and their application properties but for the
 * agent's; only the starter, its agent and its tool tell them apart.
 */
public enum StartupApp {

	/** A WebFlux application as start.spring.io generates it, with one controller. */
	BASELINE("baseline", "WebFlux app without the starter"),

	/** The same plus agent-spring-boot-starter, one configured agent and one {@code @Tool}. */
	AGENT("agent", "same + starter, 1 agent, 1 tool");

	/** The main class of both applications. */
	public static final String MAIN_CLASS = "dev.agcore.benchmarks.startup.app.StartupApplication";

	private static final String LOCATIONS = "apps.properties";

	private final String id;

	private final String label;

	StartupApp(String id, String label) {
		this.id = id;
		this.label = label;
	}

	public String id() {
		return this.id;
	}

	public String label() {
		return this.label;
	}

	/**
	 * The application's class path: its own classes (with the AOT-processed ones) first,
	 * then the jars Maven resolved for it.
	 * @return the class path, as {@code java -cp} takes it
	 * @throws IllegalStateException when the application was not built
	 */
	public String classPath() {
		Path target = target();
		Path classes = target.resolve("classes");
		Path dependencies = target.resolve("startup-classpath.txt");
		if (!Files.isRegularFile(dependencies) || !Files.isDirectory(classes)) {
			throw new IllegalStateException("The startup harness's " + this.id + " application is not built (no "
					+ dependencies + "): run mvn -B -q -pl benchmarks -am package -DskipTests");
		}
		try {
			return classes + File.pathSeparator + Files.readString(dependencies, StandardCharsets.UTF_8).strip();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read " + dependencies, ex);
		}
	}

	/**
	 * How many jars the application's class path has.
	 * @return the number of jars
	 */
	public int jars() {
		return classPath().split(File.pathSeparator).length - 1;
	}

	private Path target() {
		try (InputStream input = StartupApp.class.getResourceAsStream(LOCATIONS)) {
			if (input == null) {
				throw new IllegalStateException(LOCATIONS + " is missing: build the benchmarks module with Maven");
			}
			Properties locations = new Properties();
			locations.load(input);
			return Paths.get(locations.getProperty(this.id));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read " + LOCATIONS, ex);
		}
	}

}
