package dev.agcore.runtime;

import dev.agcore.json.AgentJson;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolSpec;
import tools.jackson.databind.node.ObjectNode;

/**
 * Hand-written tools for loop and middleware tests, independent of the annotation
 * support.
 */
public final class TestTools {

	private TestTools() {
	}

	public interface Body {

		String apply(String arguments, ToolContext context) throws Exception;

	}

	public static ToolCallback tool(String name, Body body) {
		ObjectNode schema = AgentJson.mapper().createObjectNode().put("type", "object");
		schema.putObject("properties");
		ToolSpec spec = new ToolSpec(name, "test tool " + name, schema);
		return new ToolCallback() {

			@Override
			public ToolSpec spec() {
				return spec;
			}

			@Override
			public String call(String arguments, ToolContext context) throws Exception {
				return body.apply(arguments, context);
			}

			@Override
			public String source() {
				return "test '" + name + "'";
			}
		};
	}

}
