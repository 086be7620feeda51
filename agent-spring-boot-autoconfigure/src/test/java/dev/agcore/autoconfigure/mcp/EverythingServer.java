package dev.agcore.autoconfigure.mcp;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.agcore.autoconfigure.mcp.server.NpmCommands;

/**
 * The pinned server-everything of {@code .ci/npm}, installed once by
 * {@code .ci/install-npm-packages} through {@link NpmCommands}: skipped where Node.js is
 * missing, a failure on CI ({@code CI=true}).
 */
final class EverythingServer {

	private EverythingServer() {
	}

	/** The server's executable. */
	static String command() {
		Path bin = NpmCommands.directory().resolve("node_modules").resolve(".bin").resolve("mcp-server-everything");
		if (!Files.isExecutable(bin)) {
			throw new IllegalStateException(bin + " is not installed");
		}
		return bin.toString();
	}

}
