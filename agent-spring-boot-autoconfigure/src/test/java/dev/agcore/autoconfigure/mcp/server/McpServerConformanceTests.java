package dev.agcore.autoconfigure.mcp.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import dev.agcore.json.AgentJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server scenarios of the MCP conformance suite ({@code @modelcontextprotocol/conformance},
 * pinned in {@code .ci/npm}) that apply to our server, run against a running WebFlux
 * application, with the count printed for CI logs:
 * {@code MCP conformance (server): N passed, M failed, K not applicable}.
 * <p>
 * Our server offers tools (of the application and its agents) and nothing else: the
 * scenarios about resources, prompts, completions, sampling, elicitation, and tool
 * results other than text do not apply, each for the reason given. Every scenario the
 * suite lists must be one or the other, so a new version's new scenarios are noticed.
 */
class McpServerConformanceTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	/** The scenarios that apply: the server must pass them. */
	static final Set<String> APPLICABLE = Set.of("server-initialize", "logging-set-level", "ping", "tools-list",
			"tools-call-simple-text", "tools-call-error", "tools-call-with-progress", "json-schema-2020-12",
			"server-sse-multiple-streams", "dns-rebinding-protection");

	/** The scenarios that do not apply, and why. */
	static final Map<String, String> NOT_APPLICABLE = notApplicable();

	/**
	 * Checks of applicable scenarios that fail for a reason outside our server, by check
	 * id. Each must still fail: one that passes means the reason is gone.
	 */
	static final Map<String, String> KNOWN_FAILURES = Map.of();

	@RegisterExtension
	static final McpTestServer server = new McpTestServer();

	@Test
	void everyServerScenarioIsApplicableOrSaysWhyNot() {
		NpmCommands.Result listed = conformance(List.of("list", "--server"), NpmCommands.repositoryRoot());
		Set<String> scenarios = new TreeSet<>();
		listed.stdout().lines().map(String::strip).filter((line) -> line.startsWith("- ")).forEach((line) -> {
			String name = line.substring(2).strip();
			int space = name.indexOf(' ');
			scenarios.add((space != -1) ? name.substring(0, space) : name);
		});
		assertThat(scenarios).as("server scenarios of the suite").hasSizeGreaterThan(20);
		Set<String> classified = new TreeSet<>(APPLICABLE);
		classified.addAll(NOT_APPLICABLE.keySet());
		assertThat(classified).isEqualTo(scenarios);
	}

	@Test
	void applicableServerScenariosPass(@TempDir Path results) throws IOException {
		Map<String, List<String>> failures = new LinkedHashMap<>();
		Set<String> knownFailuresSeen = new TreeSet<>();
		List<String> report = new ArrayList<>();
		for (String scenario : new TreeSet<>(APPLICABLE)) {
			List<String> failed = new ArrayList<>();
			Map<String, Integer> counts = new TreeMap<>();
			for (JsonNode check : run(scenario, results.resolve(scenario))) {
				String id = check.get("id").asString();
				String status = check.get("status").asString();
				if (status.equals("FAILURE") && KNOWN_FAILURES.containsKey(id)) {
					knownFailuresSeen.add(id);
					status = "KNOWN FAILURE";
				}
				else if (status.equals("FAILURE")) {
					failed.add(id + ": " + check.path("errorMessage").asString(""));
				}
				counts.merge(status, 1, Integer::sum);
			}
			// a scenario whose checks are all informational proved nothing
			if (!counts.containsKey("SUCCESS")) {
				failed.add("no check succeeded");
			}
			if (!failed.isEmpty()) {
				failures.put(scenario, failed);
			}
			report.add("  " + scenario + ": " + (failed.isEmpty() ? "passed " : "FAILED ") + counts);
		}
		System.out.printf(Locale.ROOT, "MCP conformance (server): %d passed, %d failed, %d not applicable%n%s%n",
				APPLICABLE.size() - failures.size(), failures.size(), NOT_APPLICABLE.size(), String.join("\n", report));
		assertThat(failures).as("failed checks by scenario").isEmpty();
		assertThat(knownFailuresSeen).as("known failures that still fail (one that passes can be removed)")
			.isEqualTo(KNOWN_FAILURES.keySet());
	}

	/** Run one server scenario and return its checks. */
	private static List<JsonNode> run(String scenario, Path output) throws IOException {
		Files.createDirectories(output);
		NpmCommands.Result result = conformance(
				List.of("server", "--url", server.mcpUrl(), "--scenario", scenario, "-o", output.toString()),
				output);
		try (Stream<Path> files = Files.walk(output)) {
			Path checks = files.filter((file) -> file.getFileName().toString().equals("checks.json"))
				.findFirst()
				.orElseThrow(() -> new AssertionError("Scenario " + scenario + " wrote no checks.json; exit code "
						+ result.exitCode() + ", output: " + result.stdout() + result.stderr()));
			return AgentJson.mapper().readTree(checks.toFile()).valueStream().toList();
		}
	}

	/**
	 * Run the conformance CLI with node, with the shim that lets it start on Node.js 20
	 * (it imports fs.globSync, which Node.js 22 added).
	 */
	private static NpmCommands.Result conformance(List<String> arguments, Path workingDirectory) {
		Path cli = NpmCommands.directory().resolve("node_modules/@modelcontextprotocol/conformance/dist/index.js");
		List<String> command = new ArrayList<>(List.of("node", "--import",
				NpmCommands.repositoryRoot().resolve(".ci/npm/node20/register.mjs").toUri().toString(),
				cli.toString()));
		command.addAll(arguments);
		return NpmCommands.run(command, workingDirectory, TIMEOUT);
	}

	private static Map<String, String> notApplicable() {
		Map<String, String> reasons = new LinkedHashMap<>();
		String text = "tools answer with text: a ToolCallback returns a String";
		reasons.put("completion-complete", "the server offers no prompts or resource templates to complete");
		reasons.put("tools-call-image", text);
		reasons.put("tools-call-audio", text);
		reasons.put("tools-call-embedded-resource", text);
		reasons.put("tools-call-mixed-content", text);
		reasons.put("tools-call-with-logging", "tools have no way to send log messages to the client");
		reasons.put("tools-call-sampling", "tools do not ask the client's model (sampling)");
		reasons.put("tools-call-elicitation", "tools do not ask the client's user (elicitation)");
		reasons.put("elicitation-sep1034-defaults", "tools do not ask the client's user (elicitation)");
		reasons.put("elicitation-sep1330-enums", "tools do not ask the client's user (elicitation)");
		reasons.put("server-sse-polling", "needs a tool that closes its SSE stream mid-call for the client to "
				+ "resume (SEP-1699); the SDK's WebFlux transport keeps no event store to resume from");
		for (String resources : List.of("resources-list", "resources-read-text", "resources-read-binary",
				"resources-templates-read", "resources-subscribe", "resources-unsubscribe")) {
			reasons.put(resources, "the server offers no resources");
		}
		for (String prompts : List.of("prompts-list", "prompts-get-simple", "prompts-get-with-args",
				"prompts-get-embedded-resource", "prompts-get-with-image")) {
			reasons.put(prompts, "the server offers no prompts");
		}
		return reasons;
	}

}
