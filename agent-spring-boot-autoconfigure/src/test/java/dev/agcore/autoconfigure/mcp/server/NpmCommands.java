package dev.agcore.autoconfigure.mcp.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The pinned npm packages of {@code .ci/npm} (MCP servers and clients, the {@code openai}
 * client), installed once into a cache directory by {@code .ci/install-npm-packages}, and
 * a way to run them. A minimal twin of agent-core's {@code dev.agcore.mcp.NpmPackages},
 * whose test classes this module cannot see: when the packages cannot be installed, tests
 * fail on CI ({@code CI=true}) and are skipped elsewhere with a message saying what to
 * install.
 */
public final class NpmCommands {

	private static volatile Path installed;

	private NpmCommands() {
	}

	/** The directory the packages are installed in, installing them first if needed. */
	public static synchronized Path directory() {
		if (installed == null) {
			Result result = run(List.of("bash", repositoryRoot().resolve(".ci/install-npm-packages").toString()),
					repositoryRoot(), Duration.ofMinutes(10));
			if (result.exitCode() != 0) {
				unavailable(".ci/install-npm-packages failed with exit code " + result.exitCode() + ": "
						+ result.stderr().strip() + " (are Node.js and npm installed?)");
			}
			installed = Paths.get(result.stdout().strip());
		}
		return installed;
	}

	/** The directory holding {@code .ci}, found upwards from the module's directory. */
	static Path repositoryRoot() {
		Path dir = Paths.get("").toAbsolutePath();
		while (dir != null && !Files.isRegularFile(dir.resolve(".ci").resolve("install-npm-packages"))) {
			dir = dir.getParent();
		}
		if (dir == null) {
			throw new IllegalStateException(".ci/install-npm-packages not found above " + Paths.get("").toAbsolutePath());
		}
		return dir;
	}

	/**
	 * Run a command to its end, or kill it (and what it started) when it overruns.
	 * @param command the command and its arguments
	 * @param workingDirectory where it runs
	 * @param timeout how long it may run
	 * @return its exit code and output
	 */
	public static Result run(List<String> command, Path workingDirectory, Duration timeout) {
		Path stdout = null;
		Path stderr = null;
		try {
			stdout = Files.createTempFile("npm-command", ".out");
			stderr = Files.createTempFile("npm-command", ".err");
			// output to files: a full pipe would block a process nobody reads yet
			Process process = new ProcessBuilder(command).directory(workingDirectory.toFile())
				.redirectOutput(stdout.toFile())
				.redirectError(stderr.toFile())
				.start();
			if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				process.descendants().forEach(ProcessHandle::destroyForcibly);
				process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
				throw new AssertionError(String.join(" ", command) + " did not finish within " + timeout + "; output: "
						+ Files.readString(stdout) + Files.readString(stderr));
			}
			return new Result(process.exitValue(), Files.readString(stdout, StandardCharsets.UTF_8),
					Files.readString(stderr, StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			unavailable("cannot run " + command.get(0) + ": " + ex.getMessage());
			throw new IllegalStateException("unreachable");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while running " + command, ex);
		}
		finally {
			delete(stdout);
			delete(stderr);
		}
	}

	private static void delete(Path file) {
		try {
			if (file != null) {
				Files.deleteIfExists(file);
			}
		}
		catch (IOException ex) {
			// a temporary file left behind is no failure
		}
	}

	private static void unavailable(String message) {
		if ("true".equalsIgnoreCase(System.getenv("CI"))) {
			Assertions.fail(message + "; on CI the npm test packages must install (.ci/run installs them)");
		}
		Assumptions.abort(message + "; install Node.js and npm to run the tests that use them");
	}

	/**
	 * How a command ended.
	 * @param exitCode its exit code
	 * @param stdout what it wrote to standard output
	 * @param stderr what it wrote to standard error
	 */
	public record Result(int exitCode, String stdout, String stderr) {

	}

}
