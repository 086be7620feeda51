package dev.agcore.autoconfigure.mcp.server;

import java.util.List;
import java.util.UUID;

import dev.agcore.Tool;
import dev.agcore.autoconfigure.WeatherTools;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolSpec;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.http.codec.autoconfigure.CodecsAutoConfiguration;
import org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.HttpHandlerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A WebFlux application offering tools and an agent over MCP, for MCP clients to drive
 * end to end: the weather tools, the tools the MCP conformance suite's server scenarios
 * call, and the agent {@code assistant} on a scripted model that looks up the weather and
 * answers with it and with how many times it was asked in the conversation.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@ImportAutoConfiguration({ NettyReactiveWebServerAutoConfiguration.class, HttpHandlerAutoConfiguration.class,
		WebFluxAutoConfiguration.class, CodecsAutoConfiguration.class, ChatModelAutoConfiguration.class,
		ToolAutoConfiguration.class, ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
		MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class, McpServerAutoConfiguration.class })
class McpTestApplication {

	static final String[] PROPERTIES = { "server.port=0", "spring.application.name=mcp-test",
			"agent.agents.assistant.model=scripted", "agent.agents.assistant.tools=get_weather",
			"agent.mcp.server.enabled=true",
			"agent.mcp.server.tools=get_weather,test_*," + ConformanceTools.JSON_SCHEMA_TOOL,
			"agent.mcp.server.agents=assistant",
			// the agent echoes its tool's result as the model is sent it: unmarked here
			"agent.untrusted-content.enabled=false" };

	@Bean
	ChatModel scripted() {
		return ScriptedChatModel.answering((request) -> {
			List<Message> messages = request.messages();
			if (messages.get(messages.size() - 1) instanceof ToolResultMessage result) {
				long asked = messages.stream().filter(UserMessage.class::isInstance).count();
				return ScriptedChatModel.text("The weather: " + result.text() + " (asked " + asked + " times)");
			}
			return ScriptedChatModel
				.toolCalls(new ToolCall("call-" + UUID.randomUUID(), "get_weather", "{\"city\": \"Oslo\"}"));
		}).withoutRecording();
	}

	@Bean
	WeatherTools weatherTools() {
		return new WeatherTools();
	}

	@Bean
	ConformanceTools conformanceTools() {
		return new ConformanceTools();
	}

	@Bean
	ToolCallback jsonSchemaTool() {
		return ConformanceTools.jsonSchemaTool();
	}

	/**
	 * The tools the conformance suite's server scenarios call, as the scenarios describe
	 * them.
	 */
	static class ConformanceTools {

		static final String JSON_SCHEMA_TOOL = "json_schema_2020_12_tool";

		@Tool(name = "test_simple_text", description = "Returns a simple text")
		String simpleText() {
			return "This is a simple text response for testing.";
		}

		@Tool(name = "test_error_handling", description = "Always fails")
		String errorHandling() {
			throw new IllegalStateException("This tool intentionally returns an error for testing");
		}

		@Tool(name = "test_tool_with_progress", description = "Reports its progress three times")
		String withProgress(ToolContext context) throws InterruptedException {
			context.progress().report(0, 100.0, null);
			Thread.sleep(50);
			context.progress().report(50, 100.0, null);
			Thread.sleep(50);
			context.progress().report(100, 100.0, null);
			return "Progress reported";
		}

		/** A tool whose schema uses JSON Schema 2020-12 keywords, declared by hand. */
		static ToolCallback jsonSchemaTool() {
			ObjectNode schema = (ObjectNode) AgentJson.mapper().readTree("""
					{"$schema": "https://json-schema.org/draft/2020-12/schema",
					 "type": "object",
					 "$defs": {"address": {"type": "object",
					  "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
					 "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
					 "additionalProperties": false}""");
			ToolSpec spec = new ToolSpec(JSON_SCHEMA_TOOL, "Tool with JSON Schema 2020-12 features", schema);
			return new ToolCallback() {

				@Override
				public ToolSpec spec() {
					return spec;
				}

				@Override
				public String call(String arguments, ToolContext context) {
					return "Received " + arguments;
				}

			};
		}

	}

}
