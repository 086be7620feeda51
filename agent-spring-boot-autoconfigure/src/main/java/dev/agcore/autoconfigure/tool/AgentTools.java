package dev.agcore.autoconfigure.tool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.autoconfigure.memory.AgentMemoryProperties;
import dev.agcore.mcp.McpPromptReference;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.retrieval.RetrieveTool;
import dev.agcore.retrieval.Retriever;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentBuilder;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.ToolRegistry;
import dev.agcore.tool.ToolScope;
import dev.agcore.tool.memory.MemoryTools;
import dev.agcore.tool.permission.ToolPermissionPolicy;
import dev.agcore.tool.permission.ToolPermissionRules;
import dev.agcore.tool.permission.UnnamedDestructiveToolPolicy;
import dev.agcore.tool.secret.SecretResolver;
import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * The tools side of the agents the auto-configuration builds: each agent gets the tools
 * of its {@code tools} scope, a permission policy from its {@code permissions} and the
 * application's {@link ToolPermissionPolicy} beans, the {@link SecretResolver}, the
 * {@link KeyValueStore} and the tool result bound. Every entry is checked against the
 * {@link ToolRegistry}, so a mistake fails startup with the property that holds it.
 * <p>
 * A call runs only if the agent's {@code permissions} rules and every
 * {@link ToolPermissionPolicy} bean (in {@code @Order}) allow it: a bean adds to the
 * rules of each agent, it does not replace them. A destructive tool that no rule of the
 * agent names is denied ({@link DestructiveToolRules}).
 *
 * @since 0.1.0
 */
public final class AgentTools {

	private final ToolRegistry registry;

	private final int maxResultLength;

	private final List<ToolPermissionPolicy> policies;

	private final SecretResolver secretResolver;

	private final KeyValueStore store;

	private final Supplier<@Nullable Retriever> retriever;

	private final List<AgentToolSource> sources;

	private final Map<String, Built> built = new ConcurrentHashMap<>();

	private final DestructiveToolRules destructive;

	/**
	 * Create the tools side of configured agents.
	 * @param registry all tools of the application
	 * @param properties the settings shared by all agents
	 * @param policies the application's permission policies, asked for every agent
	 * @param secretResolver where secret references are resolved
	 * @param store the store behind the tools' session and long-term memory
	 * @throws AgentConfigurationException if {@code agent.tools.max-result-length} is not
	 * positive
	 */
	public AgentTools(ToolRegistry registry, ToolProperties properties, List<ToolPermissionPolicy> policies,
			SecretResolver secretResolver, KeyValueStore store) {
		this(registry, properties, policies, secretResolver, store, null);
	}

	/**
	 * Create the tools side of configured agents, with a retriever for the
	 * {@code retrieve} tool of agents whose memory tools are enabled.
	 * @param registry all tools of the application
	 * @param properties the settings shared by all agents
	 * @param policies the application's permission policies, asked for every agent
	 * @param secretResolver where secret references are resolved
	 * @param store the store behind the tools' session and long-term memory
	 * @param retriever the application's retriever, or {@code null}
	 */
	public AgentTools(ToolRegistry registry, ToolProperties properties, List<ToolPermissionPolicy> policies,
			SecretResolver secretResolver, KeyValueStore store, @Nullable Retriever retriever) {
		this(registry, properties, policies, secretResolver, store, () -> retriever, List.of());
	}

	/**
	 * Create the tools side of configured agents, with where the retriever comes from
	 * and the tools of servers outside the application (MCP servers), which every agent
	 * gets within its {@code tools} scope ({@code mcp:<server>/<tool>} entries). The
	 * retriever is asked for only when an agent has memory tools: the application's index
	 * need not be opened at startup for agents that never search it.
	 * @param registry all tools of the application
	 * @param properties the settings shared by all agents
	 * @param policies the application's permission policies, asked for every agent
	 * @param secretResolver where secret references are resolved
	 * @param store the store behind the tools' session and long-term memory
	 * @param retriever the application's retriever, returning {@code null} if there is
	 * none
	 * @param sources the tools of outside servers
	 */
	public AgentTools(ToolRegistry registry, ToolProperties properties, List<ToolPermissionPolicy> policies,
			SecretResolver secretResolver, KeyValueStore store, Supplier<@Nullable Retriever> retriever,
			List<AgentToolSource> sources) {
		this.sources = List.copyOf(sources);
		this.retriever = Objects.requireNonNull(retriever, "'retriever' must not be null");
		this.registry = Objects.requireNonNull(registry, "'registry' must not be null");
		this.maxResultLength = maxResultLength("agent.tools.max-result-length", properties.getMaxResultLength());
		this.destructive = new DestructiveToolRules(properties.isDenyUnnamedDestructive());
		this.policies = List.copyOf(policies);
		this.secretResolver = Objects.requireNonNull(secretResolver, "'secretResolver' must not be null");
		this.store = Objects.requireNonNull(store, "'store' must not be null");
	}

	/**
	 * Give an agent of {@code agent.agents} its tools, permission policy, secrets, store
	 * and result bound, and build it.
	 * @param agentName the agent's name
	 * @param spec the agent's properties
	 * @param builder the builder, with everything else set
	 * @return the agent
	 * @throws AgentConfigurationException naming the property if a setting is invalid
	 */
	public Agent build(String agentName, AgentProperties.AgentSpec spec, AgentBuilder builder) {
		String prefix = "agent.agents." + agentName;
		List<String> entries = spec.getTools();
		// an entry of an outside server's tools (mcp:<server>/...) applies to its source, the others to all
		ToolRegistry registry = (entries != null)
				? scopeOrdered(prefix + ".tools", entries, true, "or remove " + prefix + ".tools to give the agent all tools")
				: this.registry;
		ToolScope scope = (entries != null) ? ToolScope.of(entries.stream().map(String::strip).distinct().toList())
				: ToolScope.all();
		// the tools a source offers by name (remote agents) are selected from the source, not the registry
		ToolScope registryScope = (entries != null) ? ToolScope.of(entries.stream()
			.map(String::strip)
			.distinct()
			.filter((entry) -> !offeredByName(entry))
			.toList()) : scope;
		UnnamedDestructiveToolPolicy destructive = this.destructive.policy(spec);
		ToolPermissionPolicy policy = policy(prefix + ".permissions", spec.getPermissions(), destructive);
		Integer maxResultLength = spec.getMaxToolResultLength();
		int bound = (maxResultLength != null) ? maxResultLength(prefix + ".max-tool-result-length", maxResultLength)
				: this.maxResultLength;
		memoryTools(spec.getMemory().getTools(), registry, builder);
		Agent agent = build(agentName, builder, registry, scope, registryScope, policy, bound, spec.getToolTimeout());
		// after building: rules may name tools that middleware gives the agent
		checkToolRules(prefix + ".permissions.allow-tools", spec.getPermissions().getAllowTools(), agent);
		checkToolRules(prefix + ".permissions.deny-tools", spec.getPermissions().getDenyTools(), agent);
		checkToolRules(prefix + ".permissions.tool-roles",
				List.copyOf(spec.getPermissions().getToolRoles().keySet()), agent);
		this.destructive.log(agent, destructive, prefix);
		return agent;
	}

	/**
	 * Give the agent remember and recall, and retrieve if there is a retriever, unless the
	 * application has tools of those names: its own win.
	 */
	private void memoryTools(AgentMemoryProperties.Tools properties, ToolRegistry registry, AgentBuilder builder) {
		if (!properties.isEnabled()) {
			return;
		}
		List<ToolCallback> tools = new ArrayList<>(MemoryTools.of(properties.getScope()));
		Retriever retriever = this.retriever.get();
		if (retriever != null) {
			// the retriever's scores may be on any scale (fused ranks are small): no minimum
			RetrieveTool.Options options = RetrieveTool.Options.DEFAULTS;
			tools.add(new RetrieveTool(retriever, new RetrieveTool.Options(options.defaultTopK(),
					options.maxTopK(), 0, options.maxContentLength(), options.filter())));
		}
		for (ToolCallback tool : tools) {
			if (registry.all().stream().noneMatch((existing) -> existing.spec().name().equals(tool.spec().name()))) {
				builder.tool(tool);
			}
		}
	}

	/**
	 * Give the default agent (created when none is configured) all tools, the
	 * {@link ToolPermissionPolicy} beans, secrets, store and result bound, and build it.
	 * @param agentName the agent's name
	 * @param builder the builder, with everything else set
	 * @return the agent
	 */
	public Agent buildDefault(String agentName, AgentBuilder builder) {
		UnnamedDestructiveToolPolicy destructive = this.destructive.defaultPolicy();
		List<ToolPermissionPolicy> policies = new ArrayList<>();
		if (destructive != null) {
			policies.add(destructive);
		}
		policies.addAll(this.policies);
		Agent agent = build(agentName, builder, this.registry, ToolScope.all(), ToolScope.all(),
				CompositeToolPermissionPolicy.of(policies), this.maxResultLength, AgentBuilder.DEFAULT_TOOL_TIMEOUT);
		this.destructive.log(agent, destructive, "agent.agents." + agentName);
		return agent;
	}

	/**
	 * Return the tools of the application that a scope property selects, such as an
	 * agent's {@code tools}: names, globs and groups, checked as an agent's are.
	 * @param property the property, for error messages
	 * @param entries its entries
	 * @return the tools, in the order the entries name them; none for no entries
	 * @throws AgentConfigurationException naming the property if an entry is empty or
	 * matches no tool
	 */
	public List<ToolCallback> select(String property, List<String> entries) {
		if (entries.isEmpty()) {
			return List.of();
		}
		ToolRegistry ordered = scopeOrdered(property, entries, false, "or remove the entry");
		ToolScope scope = ToolScope.of(entries.stream().map(String::strip).distinct().toList());
		return ordered.all().stream().filter(scope::includes).toList();
	}

	/**
	 * Return the policy of the application's {@link ToolPermissionPolicy} beans, which
	 * every agent's tool calls are asked too.
	 * @return the policy; allows every call when there is no such bean
	 */
	public ToolPermissionPolicy permissionPolicy() {
		return CompositeToolPermissionPolicy.of(this.policies);
	}

	/**
	 * Return the tool settings of an agent built here.
	 * @param agent the agent
	 * @return the settings; empty for an agent built elsewhere, such as an application's
	 * own {@link Agent} bean
	 */
	public Optional<AgentToolSettings> settings(Agent agent) {
		Built built = this.built.get(agent.name());
		return (built != null && built.agent() == agent) ? Optional.of(built.settings()) : Optional.empty();
	}

	private Agent build(String agentName, AgentBuilder builder, ToolRegistry registry, ToolScope scope,
			ToolScope registryScope, ToolPermissionPolicy policy, int maxResultLength, Duration toolTimeout) {
		for (AgentToolSource source : this.sources) {
			builder.toolSource(source.tools(), scope);
		}
		Agent agent = builder.tools(registry, registryScope)
			.permissionPolicy(policy)
			.secretResolver(this.secretResolver)
			.store(this.store)
			.maxToolResultLength(maxResultLength)
			.build();
		String description = (policy == ToolPermissionPolicy.ALLOW_ALL) ? "allow all" : policy.toString();
		this.built.put(agentName, new Built(agent,
				new AgentToolSettings(scope.entries(), description, toolTimeout, maxResultLength)));
		return agent;
	}

	/**
	 * Check each scope entry and return the registry with the tools in the order the
	 * entries name them, so that the model sees them in that order.
	 */
	private ToolRegistry scopeOrdered(String property, List<String> entries, boolean sourceEntries, String orElse) {
		Set<ToolCallback> ordered = new LinkedHashSet<>();
		for (String entry : entries) {
			ToolScope one = scopeEntry(property, entry);
			if (sourceEntries && isSourceEntry(entry)) {
				checkServers(property, entry.strip());
				continue;
			}
			if (sourceEntries && offeredByName(entry.strip())) {
				continue;
			}
			List<ToolCallback> matched = this.registry.all().stream().filter(one::includes).toList();
			if (matched.isEmpty()) {
				throw new AgentConfigurationException(property + ": " + matchesNothing(entry.strip()),
						"Use tool names, globs such as notes_* or groups such as group:notes (a tool's category, "
								+ "set with @Tool(category = ...) or TypedTool.category()), " + orElse + ".");
			}
			ordered.addAll(matched);
		}
		ordered.addAll(this.registry.all());
		return ToolRegistry.of(ordered);
	}

	private String matchesNothing(String entry) {
		if (entry.startsWith(ToolScope.GROUP_PREFIX)) {
			String group = entry.substring(ToolScope.GROUP_PREFIX.length());
			return (isGlob(group) ? "'" + entry + "' matches no group" : "no tool is in group '" + group + "'")
					+ "; known groups: " + groups();
		}
		Set<String> known = toolNames();
		this.sources.forEach((source) -> known.addAll(source.toolNames()));
		return (isGlob(entry) ? "'" + entry + "' matches no tool" : "unknown tool '" + entry + "'")
				+ "; known tools: " + known;
	}

	private ToolPermissionPolicy policy(String prefix, ToolPermissionProperties permissions,
			@Nullable UnnamedDestructiveToolPolicy destructive) {
		List<ToolPermissionPolicy> policies = new ArrayList<>();
		if (permissions.hasRules()) {
			ToolPermissionRules.Builder rules = ToolPermissionRules.builder()
				.allowPermissions(permissions(prefix + ".allow", permissions.getAllow()))
				.denyPermissions(permissions(prefix + ".deny", permissions.getDeny()))
				.allowTools(toolRules(prefix + ".allow-tools", permissions.getAllowTools()))
				.denyTools(toolRules(prefix + ".deny-tools", permissions.getDenyTools()));
			permissions.getToolRoles().forEach((tools, roles) -> {
				String property = prefix + ".tool-roles." + tools;
				scopeEntry(property, tools);
				if (roles == null || roles.isEmpty() || roles.stream().anyMatch((role) -> !StringUtils.hasText(role))) {
					throw new AgentConfigurationException(property + " must list at least one role, was " + roles,
							"List the roles whose callers may have the agent call the tool, such as [ADMIN], or "
									+ "remove the entry.");
				}
				rules.requireRoles(tools, roles);
			});
			policies.add(rules.build());
		}
		if (destructive != null) {
			policies.add(destructive);
		}
		policies.addAll(this.policies);
		return CompositeToolPermissionPolicy.of(policies);
	}

	private static ToolPermission[] permissions(String property, List<String> values) {
		List<ToolPermission> permissions = new ArrayList<>(values.size());
		for (String value : values) {
			try {
				permissions.add(ToolPermission.of((value != null) ? value : ""));
			}
			catch (IllegalArgumentException ex) {
				throw new AgentConfigurationException(property + ": " + ex.getMessage(),
						"Use read-only, write, destructive, or a custom permission such as billing:refund as "
								+ "tools declare it with @Tool(permission = ...).");
			}
		}
		return permissions.toArray(ToolPermission[]::new);
	}

	private static List<String> toolRules(String property, List<String> entries) {
		List<String> rules = new ArrayList<>(entries.size());
		for (String entry : entries) {
			scopeEntry(property, entry);
			rules.add(entry.strip());
		}
		return rules;
	}

	/** Tool names and groups must exist (a typo would silently not apply); globs need not. */
	private void checkToolRules(String property, List<String> entries, Agent agent) {
		for (String entry : entries) {
			String stripped = entry.strip();
			if (isSourceEntry(stripped)) {
				checkServers(property, stripped);
				continue;
			}
			if (offeredByName(stripped)) {
				continue;
			}
			ToolScope one = ToolScope.of(stripped);
			if (!isGlob(stripped) && this.registry.all().stream().noneMatch(one::includes)
					&& agent.toolCallbacks().stream().noneMatch(one::includes)) {
				throw new AgentConfigurationException(property + ": " + matchesNothing(stripped),
						"Use tool names, groups such as group:notes, or globs such as admin_* (a glob may match "
								+ "no tool yet).");
			}
		}
	}

	private static ToolScope scopeEntry(String property, @Nullable String entry) {
		if (!StringUtils.hasText(entry) || entry.strip().equals(ToolScope.GROUP_PREFIX)) {
			throw new AgentConfigurationException(property + " has an empty entry",
					"Remove the empty entry from " + property + ".");
		}
		try {
			return ToolScope.of(entry.strip());
		}
		catch (IllegalArgumentException ex) {
			throw new AgentConfigurationException(property + ": " + ex.getMessage(),
					"Name a server after " + ToolScope.MCP_PREFIX + ", such as mcp:filesystem or mcp:filesystem/read_*.");
		}
	}

	/**
	 * Return the middleware that makes an outside server's prompt an agent's system
	 * prompt, when the configured system prompt refers to one ({@code mcp:<server>/<prompt>}).
	 * @param property the property holding the system prompt
	 * @param systemPrompt the configured system prompt, or {@code null}
	 * @return the middleware, or empty for a plain system prompt
	 * @throws AgentConfigurationException naming the property if it refers to a server
	 * that is not configured
	 */
	public Optional<AgentMiddleware> systemPrompt(String property, @Nullable String systemPrompt) {
		if (systemPrompt == null || McpPromptReference.parse(systemPrompt).isEmpty()) {
			return Optional.empty();
		}
		for (AgentToolSource source : this.sources) {
			Optional<AgentMiddleware> middleware = source.systemPrompt(property, systemPrompt);
			if (middleware.isPresent()) {
				return middleware;
			}
		}
		throw new AgentConfigurationException(property + " refers to the MCP prompt '" + systemPrompt.strip()
				+ "', but no MCP servers are configured",
				"Configure the server under agent.mcp.servers, or write the system prompt itself.");
	}

	/**
	 * Return whether a tool of this name may be offered by a server outside the
	 * application once it is connected.
	 * @param toolName the tool's name as agents see it
	 * @return whether a server's tools are named so
	 */
	public boolean mayOffer(String toolName) {
		return this.sources.stream().anyMatch((source) -> source.mayOffer(toolName));
	}

	/** Whether a source offers a tool of exactly this name, such as a remote agent. */
	private boolean offeredByName(String entry) {
		return this.sources.stream().anyMatch((source) -> source.toolNames().contains(entry));
	}

	private static boolean isSourceEntry(String entry) {
		return entry.strip().startsWith(ToolScope.MCP_PREFIX);
	}

	/** A server named in an mcp: entry must be configured; a glob must match one. */
	private void checkServers(String property, String entry) {
		String rest = entry.substring(ToolScope.MCP_PREFIX.length());
		String server = (rest.indexOf('/') >= 0) ? rest.substring(0, rest.indexOf('/')) : rest;
		AgentToolSource source = this.sources.stream()
			.filter((candidate) -> candidate.scopePrefix().equals(ToolScope.MCP_PREFIX))
			.findFirst()
			.orElseThrow(() -> new AgentConfigurationException(
					property + ": '" + entry + "' names an MCP server, but no MCP servers are configured",
					"Configure the server under agent.mcp.servers, or remove the entry."));
		boolean known = isGlob(server) ? source.servers().stream().anyMatch((name) -> globMatches(server, name))
				: source.servers().contains(server);
		if (!known) {
			throw new AgentConfigurationException(property + ": '" + entry + "' names MCP server '" + server
					+ "', which is not configured; configured servers: " + new TreeSet<>(source.servers()),
					"Use the name of a server under agent.mcp.servers.");
		}
	}

	private static boolean globMatches(String glob, String name) {
		StringBuilder regex = new StringBuilder();
		for (char c : glob.toCharArray()) {
			regex.append((c == '*') ? ".*" : (c == '?') ? "." : Pattern.quote(String.valueOf(c)));
		}
		return name.matches(regex.toString());
	}

	private static int maxResultLength(String property, int value) {
		if (value < 1) {
			throw new AgentConfigurationException(property + " must be at least 1 (was " + value + ")",
					"Set " + property + " to the longest tool result the model may see, in characters, e.g. "
							+ AgentBuilder.DEFAULT_MAX_TOOL_RESULT_LENGTH + ".");
		}
		return value;
	}

	private static boolean isGlob(String entry) {
		return entry.indexOf('*') >= 0 || entry.indexOf('?') >= 0;
	}

	private Set<String> toolNames() {
		return new TreeSet<>(this.registry.names());
	}

	private Set<String> groups() {
		Set<String> groups = new TreeSet<>();
		for (ToolCallback tool : this.registry.all()) {
			String category = tool.metadata().category();
			if (category != null) {
				groups.add(category);
			}
		}
		return groups;
	}

	private record Built(Agent agent, AgentToolSettings settings) {
	}

}
