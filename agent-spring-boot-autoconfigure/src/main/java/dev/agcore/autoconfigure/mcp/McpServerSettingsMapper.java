package dev.agcore.autoconfigure.mcp;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.support.PropertyChecks;
import dev.agcore.mcp.McpServerSettings;
import dev.agcore.mcp.McpTransportSettings;

import org.springframework.util.StringUtils;

/**
 * Maps {@code agent.mcp.servers} into the core's {@link McpServerSettings}, once,
 * checking every entry so that a mistake fails startup naming the property that holds
 * it: a missing or unknown transport, a stdio server without a command, an HTTP server
 * without a valid URL, settings of another transport, placeholders that could not be
 * resolved, and two names that would give tools the same names.
 */
final class McpServerSettingsMapper {

	static final String PREFIX = "agent.mcp.servers";

	private static final String TRANSPORTS = "stdio, streamable-http or sse";

	private McpServerSettingsMapper() {
	}

	static List<McpServerSettings> settings(McpClientProperties properties) {
		List<McpServerSettings> servers = new ArrayList<>();
		Map<String, String> seen = new HashMap<>();
		properties.getServers().forEach((name, server) -> {
			String key = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "_");
			String other = seen.putIfAbsent(key, name);
			if (other != null) {
				throw new AgentConfigurationException(PREFIX + " has the servers '" + other + "' and '" + name
						+ "', whose tools would get the same names",
						"Rename one of them: names that differ only in case or punctuation clash.");
			}
			servers.add(settings(name, server));
		});
		return servers;
	}

	private static McpServerSettings settings(String name, McpClientProperties.Server server) {
		String prefix = PREFIX + "." + name;
		McpTransportSettings transport = transport(prefix, server);
		McpClientProperties.Reconnect reconnect = server.getReconnect();
		PropertyChecks.positive(prefix + ".request-timeout", server.getRequestTimeout());
		PropertyChecks.positive(prefix + ".initialization-timeout", server.getInitializationTimeout());
		PropertyChecks.positive(prefix + ".reconnect.initial-backoff", reconnect.getInitialBackoff());
		PropertyChecks.positive(prefix + ".reconnect.max-backoff", reconnect.getMaxBackoff());
		if (reconnect.getMaxBackoff().compareTo(reconnect.getInitialBackoff()) < 0) {
			throw new AgentConfigurationException(prefix + ".reconnect.max-backoff (" + reconnect.getMaxBackoff()
					+ ") is shorter than " + prefix + ".reconnect.initial-backoff (" + reconnect.getInitialBackoff()
					+ ")", "Set max-backoff to at least initial-backoff.");
		}
		try {
			return McpServerSettings.of(name, transport)
				.withRequired(server.isRequired())
				.withTrusted(server.isTrusted())
				.withRequestTimeout(server.getRequestTimeout())
				.withInitializationTimeout(server.getInitializationTimeout())
				.withBackoff(reconnect.getInitialBackoff(), reconnect.getMaxBackoff());
		}
		catch (IllegalArgumentException ex) {
			throw new AgentConfigurationException(prefix + ": " + ex.getMessage(),
					"Rename the server: its name prefixes its tools' names and is written in tool scopes "
							+ "(mcp:<name>/*).", ex);
		}
	}

	private static McpTransportSettings transport(String prefix, McpClientProperties.Server server) {
		String transport = server.getTransport();
		if (!StringUtils.hasText(transport)) {
			throw new AgentConfigurationException(prefix + ".transport must be set",
					"Set it to " + TRANSPORTS + ".");
		}
		return switch (transport.strip().toLowerCase(Locale.ROOT)) {
			case "stdio" -> stdio(prefix, server);
			case "streamable-http" -> {
				McpTransportSettings.StreamableHttp http = http(prefix, server, "http://localhost:3001/mcp",
						McpTransportSettings.StreamableHttp::of);
				yield endpoint(prefix, server, http.endpoint(), (endpoint) -> new McpTransportSettings.StreamableHttp(
						http.url(), endpoint, headers(prefix, server), connectTimeout(prefix, server)));
			}
			case "sse" -> {
				McpTransportSettings.Sse sse = http(prefix, server, "http://localhost:3001/sse",
						McpTransportSettings.Sse::of);
				yield endpoint(prefix, server, sse.endpoint(), (endpoint) -> new McpTransportSettings.Sse(sse.url(),
						endpoint, headers(prefix, server), connectTimeout(prefix, server)));
			}
			default -> throw new AgentConfigurationException(
					prefix + ".transport: unknown transport '" + transport + "'", "Use " + TRANSPORTS + ".");
		};
	}

	private static McpTransportSettings stdio(String prefix, McpClientProperties.Server server) {
		String command = PropertyChecks.resolved(prefix + ".command", server.getCommand());
		if (!StringUtils.hasText(command)) {
			throw new AgentConfigurationException(prefix + ".command must be set for a stdio server",
					"Set it to the program that starts the server, e.g. npx, with its arguments in " + prefix
							+ ".args.");
		}
		notFor(prefix, "stdio", StringUtils.hasText(server.getUrl()), "url");
		notFor(prefix, "stdio", StringUtils.hasText(server.getEndpoint()), "endpoint");
		notFor(prefix, "stdio", !server.getHeaders().isEmpty(), "headers");
		List<String> args = new ArrayList<>();
		for (int i = 0; i < server.getArgs().size(); i++) {
			String arg = server.getArgs().get(i);
			args.add(PropertyChecks.resolved(prefix + ".args[" + i + "]", (arg != null) ? arg : ""));
		}
		Map<String, String> env = new LinkedHashMap<>();
		server.getEnv().forEach((key, value) -> env.put(key,
				PropertyChecks.resolved(prefix + ".env." + key, (value != null) ? value : "")));
		Path workingDirectory = null;
		if (StringUtils.hasText(server.getWorkingDirectory())) {
			workingDirectory = Paths.get(server.getWorkingDirectory());
		}
		return new McpTransportSettings.Stdio(command.strip(), args, env, workingDirectory);
	}

	/** The URL's settings, its path the endpoint; naming the property when it is no http(s) URL. */
	private static <T extends McpTransportSettings> T http(String prefix, McpClientProperties.Server server,
			String example, Function<String, T> settings) {
		notFor(prefix, "HTTP", StringUtils.hasText(server.getCommand()), "command");
		notFor(prefix, "HTTP", !server.getArgs().isEmpty(), "args");
		notFor(prefix, "HTTP", !server.getEnv().isEmpty(), "env");
		notFor(prefix, "HTTP", StringUtils.hasText(server.getWorkingDirectory()), "working-directory");
		String url = PropertyChecks.resolved(prefix + ".url", server.getUrl());
		if (!StringUtils.hasText(url)) {
			throw new AgentConfigurationException(prefix + ".url must be set for an HTTP server",
					"Set it to the server's endpoint, e.g. " + example + ".");
		}
		try {
			return settings.apply(url.strip());
		}
		catch (IllegalArgumentException ex) {
			throw new AgentConfigurationException(prefix + ".url is not a valid http(s) URL: " + ex.getMessage(),
					"Set it to the server's endpoint, e.g. " + example + ".", ex);
		}
	}

	/** The settings with the configured endpoint, else the URL's path. */
	private static <T extends McpTransportSettings> T endpoint(String prefix, McpClientProperties.Server server,
			String fromUrl, Function<String, T> settings) {
		String endpoint = StringUtils.hasText(server.getEndpoint()) ? server.getEndpoint().strip() : fromUrl;
		try {
			return settings.apply(endpoint);
		}
		catch (IllegalArgumentException ex) {
			throw new AgentConfigurationException(prefix + ".endpoint: " + ex.getMessage(),
					"Set it to the path of the endpoint, such as /mcp.", ex);
		}
	}

	private static Map<String, String> headers(String prefix, McpClientProperties.Server server) {
		Map<String, String> headers = new LinkedHashMap<>();
		server.getHeaders().forEach((key, value) -> headers.put(key,
				PropertyChecks.resolved(prefix + ".headers." + key, (value != null) ? value : "")));
		return headers;
	}

	private static Duration connectTimeout(String prefix, McpClientProperties.Server server) {
		return PropertyChecks.positive(prefix + ".connect-timeout", server.getConnectTimeout());
	}

	private static void notFor(String prefix, String transport, boolean set, String property) {
		if (set) {
			throw new AgentConfigurationException(prefix + "." + property + " is set, but a " + transport
					+ " server does not use it", "Remove it, or check " + prefix + ".transport.");
		}
	}

}
