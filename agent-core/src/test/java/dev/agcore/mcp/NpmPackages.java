package dev.agcore.mcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The pinned MCP servers and clients of {@code .ci/npm}, installed once into a cache
 * directory by {@code .ci/install-npm-packages}. Tests that need them run when Node.js and
 * npm are on the machine; when they are not, the tests fail on CI ({@code CI=true}) and are
 * skipped elsewhere with a message saying what to install.
 */
public final class NpmPackages {

	private static volatile Path installed;

	private NpmPackages() {
	}

	/**
	 * Return the executable of an installed package's command, installing the packages
	 * first if needed.
	 * @param command a name under {@code node_modules/.bin}, e.g. {@code mcp-server-everything}
	 * @return the executable
	 */
	public static Path bin(String command) {
		Path bin = directory().resolve("node_modules").resolve(".bin").resolve(command);
		if (!Files.isExecutable(bin)) {
			unavailable(command + " is not installed in " + directory());
		}
		return bin;
	}

	/** Return the directory the packages are installed in, installing them first if needed. */
	public static synchronized Path directory() {
		if (installed == null) {
			installed = install();
		}
		return installed;
	}

	private static Path install() {
		Path script = repositoryRoot().resolve(".ci").resolve("install-npm-packages");
		try {
			Process process = new ProcessBuilder("bash", script.toString())
				.redirectError(ProcessBuilder.Redirect.INHERIT)
				.start();
			String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
			if (!process.waitFor(10, TimeUnit.MINUTES)) {
				process.destroyForcibly();
				unavailable("installing the MCP test packages took over 10 minutes");
			}
			if (process.exitValue() != 0) {
				unavailable(script + " failed with exit code " + process.exitValue()
						+ " (are Node.js and npm installed?)");
			}
			return Paths.get(out);
		}
		catch (IOException ex) {
			unavailable("cannot run " + script + ": " + ex.getMessage());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			unavailable("interrupted while installing the MCP test packages");
		}
		throw new IllegalStateException("unreachable");
	}

	/**
	 * Return the directory holding {@code .ci}, found upwards from the module's directory.
	 * @return the repository's root
	 */
	public static Path repositoryRoot() {
		Path dir = Paths.get("").toAbsolutePath();
		while (dir != null && !Files.isRegularFile(dir.resolve(".ci").resolve("install-npm-packages"))) {
			dir = dir.getParent();
		}
		if (dir == null) {
			throw new IllegalStateException(".ci/install-npm-packages not found above " + Paths.get("").toAbsolutePath());
		}
		return dir;
	}

	private static void unavailable(String message) {
		if ("true".equalsIgnoreCase(System.getenv("CI"))) {
			Assertions.fail(message + "; on CI the MCP test packages must install (.ci/run installs them)");
		}
		Assumptions.abort(message + "; install Node.js and npm to run the MCP tests");
	}

}
