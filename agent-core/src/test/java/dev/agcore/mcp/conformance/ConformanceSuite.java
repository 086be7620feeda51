package dev.agcore.mcp.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.agcore.mcp.NpmPackages;

/**
 * The MCP conformance suite's command line ({@code @modelcontextprotocol/conformance},
 * pinned in {@code .ci/npm}), run with node and the shim that lets it start on Node.js 20
 * (it imports {@code fs.globSync}, which Node.js 22 added). Each run is killed, with what
 * it started, when it overruns.
 */
final class ConformanceSuite {

	private ConformanceSuite() {
	}

	/**
	 * Run the suite's command line to its end.
	 * @param arguments its arguments, such as {@code list --client}
	 * @param workingDirectory where it runs
	 * @param timeout how long it may run
	 * @return its exit code and output
	 */
	static Result run(List<String> arguments, Path workingDirectory, Duration timeout) {
		Path cli = NpmPackages.directory().resolve("node_modules/@modelcontextprotocol/conformance/dist/index.js");
		List<String> command = new ArrayList<>(List.of("node", "--import",
				NpmPackages.repositoryRoot().resolve(".ci/npm/node20/register.mjs").toUri().toString(),
				cli.toString()));
		command.addAll(arguments);
		try {
			Path stdout = Files.createTempFile(workingDirectory, "conformance", ".out");
			Path stderr = Files.createTempFile(workingDirectory, "conformance", ".err");
			// output to files: a full pipe would block a process nobody reads yet
			Process process = new ProcessBuilder(command).directory(workingDirectory.toFile())
				.redirectOutput(stdout.toFile())
				.redirectError(stderr.toFile())
				.start();
			if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				process.descendants().forEach(ProcessHandle::destroyForcibly);
				process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
				throw new AssertionError(String.join(" ", arguments) + " did not finish within " + timeout
						+ "; output: " + Files.readString(stdout) + Files.readString(stderr));
			}
			return new Result(process.exitValue(), Files.readString(stdout, StandardCharsets.UTF_8),
					Files.readString(stderr, StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot run the MCP conformance suite: " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while running the MCP conformance suite", ex);
		}
	}

	/**
	 * How a run ended.
	 * @param exitCode its exit code: 0 when every check passed, with no warning, and the
	 * client exited with 0
	 * @param stdout what it wrote to standard output
	 * @param stderr what it wrote to standard error (its report)
	 */
	record Result(int exitCode, String stdout, String stderr) {

	}

}
