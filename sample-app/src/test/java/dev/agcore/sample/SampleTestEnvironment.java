package dev.agcore.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * What the sample's tests start from, set once per test run (registered in
 * {@code META-INF/services}): a fresh {@code sample.data-dir} under {@code target/}, so the
 * H2 file and the shop's folder of one run are never those of an earlier run nor in the
 * user's home (the next run deletes them); and the librarian's MCP filesystem server run from the
 * pinned packages {@code .ci/install-npm-packages} installs, never downloaded by npx.
 */
public class SampleTestEnvironment implements LauncherSessionListener {

	static final String DATA_DIR = "sample.data-dir";

	private static final String PREFIX = "test-data-";

	private static final String FILESYSTEM_SERVER = "mcp-server-filesystem";

	private static @Nullable Path dataDirectory;

	private static @Nullable String npmProblem;

	private static @Nullable Path filesystemServer;

	@Override
	public void launcherSessionOpened(LauncherSession session) {
		String given = System.getProperty(DATA_DIR);
		if (given == null) {
			try {
				Path target = Files.createDirectories(Paths.get("target").toAbsolutePath());
				deleteEarlierRuns(target);
				dataDirectory = Files.createTempDirectory(target, PREFIX);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			System.setProperty(DATA_DIR, dataDirectory.toString());
		}
		filesystemServer = installedFilesystemServer();
		if (filesystemServer != null) {
			// in place of npx -y <package>: the same package, installed; the folder of each application's data-dir
			System.setProperty("agent.mcp.servers.shop-files.command", filesystemServer.toString());
			System.setProperty("agent.mcp.servers.shop-files.args", "${sample.data-dir}/shop-files");
		}
	}

	/** The directories of earlier runs: not at the end of this one, the cached contexts close after it. */
	private static void deleteEarlierRuns(Path target) throws IOException {
		try (Stream<Path> earlier = Files.list(target)) {
			for (Path directory : earlier.filter((path) -> path.getFileName().toString().startsWith(PREFIX)).toList()) {
				try (Stream<Path> files = Files.walk(directory)) {
					files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
				}
			}
		}
	}

	/**
	 * Require the MCP filesystem server the sample's tests run: fail on CI
	 * ({@code CI=true}), where {@code .ci/run} installs it, and skip the test elsewhere.
	 */
	static void requireFilesystemServer() {
		if (filesystemServer == null) {
			String message = "the MCP filesystem server is not installed (" + npmProblem + ")";
			if ("true".equalsIgnoreCase(System.getenv("CI"))) {
				Assertions.fail(message + "; on CI the MCP test packages must install (.ci/run installs them)");
			}
			Assumptions.abort(message + "; install Node.js and npm to run the librarian's tests");
		}
	}

	/** The server's executable, installing the pinned packages first when npm can. */
	private static @Nullable Path installedFilesystemServer() {
		Path script = repositoryRoot().resolve(".ci").resolve("install-npm-packages");
		try {
			Process process = new ProcessBuilder("bash", script.toString()).redirectError(ProcessBuilder.Redirect.INHERIT)
				.start();
			String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
			if (!process.waitFor(10, TimeUnit.MINUTES)) {
				process.destroyForcibly();
				npmProblem = "installing the pinned npm packages took over 10 minutes";
				return null;
			}
			if (process.exitValue() != 0) {
				npmProblem = script + " failed with exit code " + process.exitValue() + ", are Node.js and npm installed?";
				return null;
			}
			Path bin = Paths.get(out).resolve("node_modules").resolve(".bin").resolve(FILESYSTEM_SERVER);
			if (!Files.isExecutable(bin)) {
				npmProblem = bin + " is missing";
				return null;
			}
			return bin;
		}
		catch (IOException ex) {
			npmProblem = "cannot run " + script + ": " + ex.getMessage();
			return null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			npmProblem = "interrupted while installing the pinned npm packages";
			return null;
		}
	}

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

}
