package dev.agcore.tool;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Which tools of a {@link ToolRegistry} an agent may use. Each entry is one of:
 * <ul>
 * <li>a tool name, {@code get_weather}: that tool, which must exist;</li>
 * <li>a glob, {@code notes_*} ({@code *} any characters, {@code ?} one): every tool whose
 * name matches, possibly none;</li>
 * <li>a group, {@code group:notes} (globs allowed too): every tool whose
 * {@linkplain ToolMetadata#category() category} matches;</li>
 * <li>an MCP server's tools, {@code mcp:filesystem} or {@code mcp:filesystem/read_*}
 * (globs allowed in both parts): every tool whose {@linkplain ToolCallback#origin()
 * origin} is that server, by its name on the server, whatever it is called locally.</li>
 * </ul>
 * Immutable.
 */
public final class ToolScope {

	/** The prefix of entries that select by category. */
	public static final String GROUP_PREFIX = "group:";

	/** The prefix of entries that select the tools of MCP servers. */
	public static final String MCP_PREFIX = ToolOrigin.MCP + ":";

	private static final ToolScope ALL = new ToolScope(List.of("*"));

	private static final ToolScope NONE = new ToolScope(List.of());

	private final List<String> entries;

	private final List<Matcher> matchers;

	private ToolScope(List<String> entries) {
		this.entries = List.copyOf(entries);
		this.matchers = this.entries.stream().map(Matcher::of).toList();
	}

	/**
	 * Create a scope from entries.
	 * @param entries tool names, globs and {@code group:} entries
	 * @return the scope
	 */
	public static ToolScope of(String... entries) {
		return of(List.of(entries));
	}

	/**
	 * Create a scope from entries.
	 * @param entries tool names, globs and {@code group:} entries
	 * @return the scope
	 */
	public static ToolScope of(Collection<String> entries) {
		Objects.requireNonNull(entries, "'entries' must not be null");
		List<String> stripped = new ArrayList<>(entries.size());
		for (String entry : entries) {
			Objects.requireNonNull(entry, "'entries' must not contain null");
			if (entry.isBlank() || entry.strip().equals(GROUP_PREFIX) || entry.strip().equals(MCP_PREFIX)
					|| entry.strip().startsWith(MCP_PREFIX + "/")) {
				throw new IllegalArgumentException("Tool scope entry '" + entry + "' is empty");
			}
			stripped.add(entry.strip());
		}
		return new ToolScope(stripped);
	}

	/** Every tool. */
	public static ToolScope all() {
		return ALL;
	}

	/** No tool. */
	public static ToolScope none() {
		return NONE;
	}

	public List<String> entries() {
		return this.entries;
	}

	/**
	 * Return the MCP servers this scope names, as written (possibly globs).
	 * @return the server part of each {@code mcp:} entry, in order
	 */
	public List<String> mcpServers() {
		return this.matchers.stream().filter((matcher) -> matcher.server() != null).map(Matcher::entry).toList();
	}

	/**
	 * Return whether a tool is in this scope.
	 * @param tool the tool
	 * @return whether the agent may use it
	 */
	public boolean includes(ToolCallback tool) {
		for (Matcher matcher : this.matchers) {
			if (matcher.matches(tool)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Return the tools of a registry that are in this scope, in registry order.
	 * @param registry the registry
	 * @return the tools
	 * @throws ToolDefinitionException if an entry names a tool the registry does not have
	 */
	public List<ToolCallback> select(ToolRegistry registry) {
		for (Matcher matcher : this.matchers) {
			String name = matcher.exactName();
			if (name != null && registry.find(name).isEmpty()) {
				throw new ToolDefinitionException("Unknown tool '" + name + "' in tool scope "
						+ this.entries + ". Known tools: " + registry.names());
			}
		}
		return registry.all().stream().filter(this::includes).toList();
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return this == other || (other instanceof ToolScope scope && this.entries.equals(scope.entries));
	}

	@Override
	public int hashCode() {
		return this.entries.hashCode();
	}

	@Override
	public String toString() {
		return "ToolScope " + this.entries;
	}

	/**
	 * One entry, compiled: a name or glob, a {@code group:} glob, or an {@code mcp:} entry
	 * whose server glob is {@code entry} and whose tool glob is {@code pattern}.
	 */
	private record Matcher(boolean group, Pattern pattern, String entry, @Nullable Pattern server) {

		static Matcher of(String entry) {
			if (entry.startsWith(MCP_PREFIX)) {
				String rest = entry.substring(MCP_PREFIX.length());
				int slash = rest.indexOf('/');
				String server = (slash < 0) ? rest : rest.substring(0, slash);
				String tool = (slash < 0 || slash == rest.length() - 1) ? "*" : rest.substring(slash + 1);
				return new Matcher(false, glob(tool), server, glob(server));
			}
			boolean group = entry.startsWith(GROUP_PREFIX);
			String glob = group ? entry.substring(GROUP_PREFIX.length()) : entry;
			return new Matcher(group, glob(glob), glob, null);
		}

		boolean matches(ToolCallback tool) {
			if (this.server != null) {
				ToolOrigin origin = tool.origin();
				return origin != null && ToolOrigin.MCP.equals(origin.kind())
						&& this.server.matcher(origin.server()).matches() && this.pattern.matcher(origin.name()).matches();
			}
			String subject = this.group ? tool.metadata().category() : tool.spec().name();
			return subject != null && this.pattern.matcher(subject).matches();
		}

		/** The tool name when the entry is a plain name; null for globs, groups and servers. */
		@Nullable String exactName() {
			return (this.group || this.server != null || this.entry.indexOf('*') >= 0 || this.entry.indexOf('?') >= 0)
					? null : this.entry;
		}

		private static Pattern glob(String glob) {
			StringBuilder regex = new StringBuilder(glob.length() + 8);
			for (char c : glob.toCharArray()) {
				switch (c) {
					case '*' -> regex.append(".*");
					case '?' -> regex.append('.');
					default -> regex.append(Pattern.quote(String.valueOf(c)));
				}
			}
			return Pattern.compile(regex.toString());
		}

	}

}
