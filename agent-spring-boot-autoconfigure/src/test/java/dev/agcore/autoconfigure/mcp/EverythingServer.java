package dev.agcore.autoconfigure.mcp;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The pinned server-everything of {@code .ci/npm}, installed once by
 * {@code .ci/install-npm-packages} (agent-core's {@code NpmPackages} does the same for its
 * tests): skipped where Node.js is missing, a failure on CI ({@code CI=true}).
 */
final class EverythingServer {

	private EverythingServer() {
	}

	/** The server's executable. */
	static String command() {
		Path dir = Paths.get("").toAbsolutePath();
		while (dir != null && !Files.isRegularFile(dir.resolve(".ci/install-npm-packages"))) {
			dir = dir.getParent();
		}
		try {
			Process process = new ProcessBuilder("bash", dir.resolve(".ci/install-npm-packages").toString())
				.redirectError(ProcessBuilder.Redirect.INHERIT)
				.start();
			String installed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
			Path bin = Paths.get(installed, "node_modules", ".bin", "mcp-server-everything");
			if (process.waitFor() == 0 && Files.isExecutable(bin)) {
				return bin.toString();
			}
		}
		catch (Exception ex) {
			// reported below
		}
		if ("true".equalsIgnoreCase(System.getenv("CI"))) {
			Assertions.fail("the MCP test packages must install on CI (.ci/install-npm-packages)");
		}
		Assumptions.abort("install Node.js and npm to run the MCP tests");
		throw new IllegalStateException("unreachable");
	}

}
