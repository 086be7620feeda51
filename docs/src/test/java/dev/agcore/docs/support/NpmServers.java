package dev.agcore.docs.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The pinned MCP servers of {@code .ci/npm} (server-everything, server-filesystem) that
 * the MCP page's snippets connect to, installed once into a cache directory by
 * {@code .ci/install-npm-packages}: a twin of the autoconfigure module's
 * {@code NpmCommands}, whose test classes this module cannot see. Without Node.js and
 * npm the tests are skipped with a message, and fail on CI ({@code CI=true}).
 */
public final class NpmServers {

	private static volatile Path installed;

	private NpmServers() {
	}

	/** The executable of {@code @modelcontextprotocol/server-everything}. */
	public static String everything() {
		return bin("mcp-server-everything");
	}

	/** The executable of {@code @modelcontextprotocol/server-filesystem}. */
	public static String filesystem() {
		return bin("mcp-server-filesystem");
	}

	private static String bin(String name) {
		Path bin = directory().resolve("node_modules").resolve(".bin").resolve(name);
		if (!Files.isExecutable(bin)) {
			unavailable(bin + " is not installed");
		}
		return bin.toString();
	}

	private static synchronized Path directory() {
		if (installed == null) {
			Path root = repositoryRoot();
			Path stdout = null;
			Path stderr = null;
			try {
				stdout = Files.createTempFile("npm-install", ".out");
				stderr = Files.createTempFile("npm-install", ".err");
				// output to files: a full pipe would block a process nobody reads yet
				Process process = new ProcessBuilder("bash", root.resolve(".ci/install-npm-packages").toString())
					.directory(root.toFile())
					.redirectOutput(stdout.toFile())
					.redirectError(stderr.toFile())
					.start();
				if (!process.waitFor(10, TimeUnit.MINUTES)) {
					process.descendants().forEach(ProcessHandle::destroyForcibly);
					process.destroyForcibly();
					unavailable(".ci/install-npm-packages did not finish within 10 minutes");
				}
				if (process.exitValue() != 0) {
					unavailable(".ci/install-npm-packages failed with exit code " + process.exitValue() + ": "
							+ Files.readString(stderr, StandardCharsets.UTF_8).strip() + " (are Node.js and npm installed?)");
				}
				installed = Paths.get(Files.readString(stdout, StandardCharsets.UTF_8).strip());
			}
			catch (IOException ex) {
				unavailable("cannot run .ci/install-npm-packages: " + ex.getMessage());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted while installing the MCP servers", ex);
			}
			finally {
				delete(stdout);
				delete(stderr);
			}
		}
		return installed;
	}

	/** The directory holding {@code .ci}, found upwards from the module's directory. */
	private static Path repositoryRoot() {
		Path dir = Paths.get("").toAbsolutePath();
		while (dir != null && !Files.isRegularFile(dir.resolve(".ci").resolve("install-npm-packages"))) {
			dir = dir.getParent();
		}
		if (dir == null) {
			throw new IllegalStateException(".ci/install-npm-packages not found above " + Paths.get("").toAbsolutePath());
		}
		return dir;
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
			Assertions.fail(message + "; on CI the MCP test servers must install (.ci/run installs them)");
		}
		Assumptions.abort(message + "; install Node.js and npm to run the MCP snippets' tests");
	}

}
