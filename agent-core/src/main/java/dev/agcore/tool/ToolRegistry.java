package dev.agcore.tool;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * All tools known to the application, by name. Immutable once built; a duplicate name
 * fails construction with a message naming both declarations.
 */
public final class ToolRegistry {

	private final Map<String, ToolCallback> tools;

	private ToolRegistry(Map<String, ToolCallback> tools) {
		this.tools = Collections.unmodifiableMap(tools);
	}

	/**
	 * Create a registry.
	 * @param tools the tools
	 * @return the registry
	 * @throws ToolDefinitionException if two tools share a name
	 */
	public static ToolRegistry of(Collection<? extends ToolCallback> tools) {
		Map<String, ToolCallback> byName = new LinkedHashMap<>();
		for (ToolCallback tool : tools) {
			String name = tool.spec().name();
			ToolCallback previous = byName.putIfAbsent(name, tool);
			if (previous != null) {
				throw new ToolDefinitionException("Duplicate tool name '" + name + "': declared by "
						+ previous.source() + " and by " + tool.source() + ". Give one of them another name.");
			}
		}
		return new ToolRegistry(byName);
	}

	public static ToolRegistry empty() {
		return new ToolRegistry(Map.of());
	}

	public Optional<ToolCallback> find(String name) {
		return Optional.ofNullable(this.tools.get(name));
	}

	public Collection<ToolCallback> all() {
		return this.tools.values();
	}

	public List<String> names() {
		return List.copyOf(this.tools.keySet());
	}

	/**
	 * Return the tools with the given names, in that order.
	 * @param names the tool names
	 * @return the tools
	 * @throws ToolDefinitionException naming the first unknown tool
	 */
	public List<ToolCallback> select(Collection<String> names) {
		List<ToolCallback> selected = new ArrayList<>(names.size());
		for (String name : names) {
			ToolCallback tool = this.tools.get(name);
			if (tool == null) {
				throw new ToolDefinitionException("Unknown tool '" + name + "'. Known tools: " + this.tools.keySet());
			}
			selected.add(tool);
		}
		return selected;
	}

}
