package dev.agcore.model.xml;

import java.util.ArrayList;
import java.util.List;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ToolChoice;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;

/**
 * Rewrites a request for a model that calls tools by writing {@code <use_tool>} blocks:
 * the offered tools are described in the system prompt instead of being sent natively,
 * earlier calls become blocks in the assistant's text, and tool results become user
 * messages ({@code <tool_result name="..." id="...">...</tool_result>}), the only roles
 * such a model knows. The stored conversation is not changed: only what is sent.
 */
public final class XmlToolPrompt {

	/** How the format is explained to the model, before the tools are listed. */
	static final String INSTRUCTIONS = """
			# Tools
			You can call the tools listed below. To call one, write a block like this, \
			with the arguments as a JSON object that follows the tool's parameter schema:

			<use_tool>
			<name>TOOL_NAME</name>
			<args>{"parameter": "value"}</args>
			</use_tool>

			For example, if there were a tool get_weather taking a city:

			<use_tool>
			<name>get_weather</name>
			<args>{"city": "Paris"}</args>
			</use_tool>

			Write one block per call; several blocks call several tools. After your blocks, \
			stop: each result comes back in a <tool_result name="..." id="..."> message, \
			and then you continue. Call only the tools listed here, never invent a result, \
			and answer in plain text when you need no tool.""";

	private XmlToolPrompt() {
	}

	/**
	 * Return whether a request offers tools, so that its answer may hold calls.
	 * @param request the request
	 * @return whether it has tools and does not forbid them
	 */
	public static boolean offersTools(ChatRequest request) {
		ToolChoice choice = request.options().toolChoice();
		return !request.tools().isEmpty() && (choice == null || choice.mode() != ToolChoice.Mode.NONE);
	}

	/**
	 * Rewrite a request for a model without native tool calling.
	 * @param request the request
	 * @return the request with no native tools and no tool messages, or the same one when
	 * it has neither
	 */
	public static ChatRequest rewrite(ChatRequest request) {
		boolean offers = offersTools(request);
		boolean toolMessages = request.messages()
			.stream()
			.anyMatch((message) -> message instanceof ToolResultMessage
					|| (message instanceof AssistantMessage assistant && assistant.hasToolCalls()));
		if (request.tools().isEmpty() && request.options().toolChoice() == null && !toolMessages) {
			return request;
		}
		List<Message> source = request.messages();
		List<Message> messages = new ArrayList<>(source.size() + 1);
		int from = 0;
		if (offers) {
			String tools = describe(request.tools(), request.options().toolChoice());
			if (!source.isEmpty() && source.get(0) instanceof SystemMessage system) {
				messages.add(new SystemMessage(system.text() + "\n\n" + tools, system.developer()));
				from = 1;
			}
			else {
				messages.add(new SystemMessage(tools));
			}
		}
		// consecutive results (one response's calls) go back as one user message
		StringBuilder results = new StringBuilder();
		for (Message message : source.subList(from, source.size())) {
			if (message instanceof ToolResultMessage result) {
				results.append((results.length() > 0) ? "\n" : "").append(result(result));
				continue;
			}
			if (results.length() > 0) {
				messages.add(new UserMessage(results.toString()));
				results.setLength(0);
			}
			messages.add((message instanceof AssistantMessage assistant && assistant.hasToolCalls())
					? withBlocks(assistant) : message);
		}
		if (results.length() > 0) {
			messages.add(new UserMessage(results.toString()));
		}
		return new ChatRequest(messages, List.of(), request.options().mutate().toolChoice(null).build());
	}

	/**
	 * Write a call as the block the model would have written.
	 * @param call the call
	 * @return the block
	 */
	public static String block(ToolCall call) {
		return "<use_tool>\n<name>" + call.name() + "</name>\n<args>" + cdata(call.arguments())
				+ "</args>\n</use_tool>";
	}

	static String describe(List<ToolSpec> tools, @Nullable ToolChoice choice) {
		StringBuilder text = new StringBuilder(INSTRUCTIONS);
		if (choice != null && choice.mode() == ToolChoice.Mode.REQUIRED) {
			text.append("\n\nCall at least one tool now.");
		}
		else if (choice != null && choice.mode() == ToolChoice.Mode.TOOL) {
			text.append("\n\nCall the tool ").append(choice.toolName()).append(" now.");
		}
		text.append("\n\nAvailable tools:");
		for (ToolSpec tool : tools) {
			text.append("\n\n## ").append(tool.name());
			if (!tool.description().isBlank()) {
				text.append('\n').append(tool.description().strip());
			}
			text.append("\nParameters (JSON schema): ").append(tool.inputSchema());
		}
		return text.toString();
	}

	private static AssistantMessage withBlocks(AssistantMessage assistant) {
		StringBuilder text = new StringBuilder(assistant.text().strip());
		for (ToolCall call : assistant.toolCalls()) {
			text.append((text.length() > 0) ? "\n" : "").append(block(call));
		}
		return new AssistantMessage(text.toString(), List.of(), assistant.reasoning(), assistant.refusal());
	}

	private static String result(ToolResultMessage result) {
		return "<tool_result name=\"" + attribute(result.toolName()) + "\" id=\"" + attribute(result.toolCallId())
				+ "\"" + (result.error() ? " error=\"true\"" : "") + ">\n" + result.text() + "\n</tool_result>";
	}

	private static String attribute(String value) {
		return value.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;");
	}

	/** Arguments as written, unless they hold markup: then in CDATA, as the parser reads it. */
	private static String cdata(String arguments) {
		if (arguments.indexOf('<') < 0 && arguments.indexOf('&') < 0) {
			return arguments;
		}
		return "<![CDATA[" + arguments.replace("]]>", "]]]]><![CDATA[>") + "]]>";
	}

}
