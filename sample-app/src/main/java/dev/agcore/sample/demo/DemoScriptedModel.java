package dev.agcore.sample.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.agcore.json.AgentJson;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ResponseFormat;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.util.StringUtils;

/**
 * <pre>
 * ==========================================================================================
 *  NOT A MODEL — a deterministic script so the sample runs without an API key.
 *
 *  It spots a few phrasings with regular expressions ("weather in Paris", "convert 10 km
 *  to miles", "order A-1001", "cancel order A-1002", "return policy"), asks for the matching sample tool,
 *  and then answers by quoting the tool's result; asked for the date, it quotes the
 *  "Today is ..." line of its system prompt. Asked for a plan (the planner agent), it makes
 *  one step of each part of the message joined by "and", "then" or ";". An agent whose
 *  only tool is retrieve (the researcher) searches for any question and quotes the best
 *  page; an agent with the MCP filesystem tools (the librarian) reads a file it names or
 *  lists the folder, see DemoFileScript. It understands nothing else. Set
 *  OPENAI_API_KEY (or point agent.providers.openai.base-url at an OpenAI-compatible server
 *  such as Ollama) to talk to a real model.
 * ==========================================================================================
 * </pre>
 * The agent, the tools, the HTTP endpoint, the conversation store and the metrics around
 * it are all real: only the model's decisions are scripted.
 */
public final class DemoScriptedModel {

	static final String MODEL_NAME = "demo-script (not a model)";

	private static final Pattern WEATHER = Pattern.compile("(?i)\\b(weather|temperature|forecast)\\b");

	private static final Pattern CITY = Pattern
		.compile("(?i)\\b(?:in|for|at)\\s+([\\p{L}][\\p{L} .'-]*?)\\s*(?:[?!.,]|$|\\b(?:today|now|right now)\\b)");

	private static final Pattern CONVERSION = Pattern.compile(
			"(?i)(-?\\d+(?:[.,]\\d+)?)\\s*(°?[a-z]+)\\b.*?\\b(?:to|in|into)\\s+(°?[a-z]+)");

	private static final Pattern ORDER = Pattern.compile("(?i)\\border\\b\\D*?([a-z]-?\\d{3,})");

	private static final Pattern CANCEL = Pattern.compile("(?i)\\bcancel\\b.*?\\border\\b\\D*?([a-z]-?\\d{3,})");

	private static final Pattern POLICY = Pattern
		.compile("(?i)\\b(return|returns|refund|refunds|shipping|ship|delivery|warranty|repair|policy)\\b");

	private static final Pattern DATE = Pattern.compile("(?i)\\b(what day|date|today)\\b");

	private static final Pattern TODAY = Pattern.compile("Today is [^.\\n]+\\.");

	private static final Pattern UNTRUSTED_BLOCK = Pattern.compile("<([A-Za-z][\\w-]*) source=\"[^\"]*\">\n(.*)\n</\\1>",
			Pattern.DOTALL);

	private static final Pattern STEP_SEPARATOR = Pattern.compile("(?i)\\s*(?:;|,?\\s+and then\\s+|,?\\s+then\\s+|,?\\s+and\\s+)\\s*");

	private static final String RETRIEVE = "retrieve";

	private static final Pattern PLAN_STEP = Pattern.compile("(?m)^Step \\d+: (.+)$");

	private DemoScriptedModel() {
	}

	/**
	 * Create the scripted model.
	 * @return the model
	 */
	public static ScriptedChatModel create() {
		return ScriptedChatModel.answering(DemoScriptedModel::respond).withModelName(MODEL_NAME).withoutRecording();
	}

	static ChatResponse respond(ChatRequest request) {
		List<Message> messages = request.messages();
		Message last = messages.get(messages.size() - 1);
		if (last instanceof ToolResultMessage) {
			return isResearcher(request) ? answerFromPages(messages) : answerFromToolResults(messages);
		}
		String question = (last instanceof UserMessage user) ? user.text() : "";
		if (isPlanning(request)) {
			return ScriptedChatModel.text(planOf(question));
		}
		question = currentStep(question);
		String id = "call_demo_" + messages.size();
		if (isResearcher(request)) {
			// a researcher searches for every question, whatever its words
			return ScriptedChatModel
				.toolCalls(new ToolCall(id, RETRIEVE, "{\"query\":\"" + json(question) + "\",\"top_k\":3}"));
		}
		ToolCall files = DemoFileScript.call(question, request.tools(), id);
		if (files != null) {
			return ScriptedChatModel.toolCalls(files);
		}
		ToolCall call = plan(question, messages.size());
		if (call == null) {
			String today = DATE.matcher(question).find() ? today(messages) : null;
			return ScriptedChatModel.text((today != null) ? "(demo) " + today : help(request));
		}
		if (request.tools().stream().map(ToolSpec::name).noneMatch(call.name()::equals)) {
			return ScriptedChatModel.text("(demo) I would use the '" + call.name()
					+ "' tool for that, but this agent does not have it.");
		}
		return ScriptedChatModel.toolCalls(call);
	}

	/** A research agent: one whose only tool is {@code retrieve}. */
	private static boolean isResearcher(ChatRequest request) {
		return request.tools().size() == 1 && RETRIEVE.equals(request.tools().get(0).name());
	}

	/** A request of a plan-and-execute agent for its plan: answered with the plan's JSON. */
	private static boolean isPlanning(ChatRequest request) {
		ResponseFormat format = request.options().responseFormat();
		boolean planSchema = format != null && "plan".equals(format.name());
		return planSchema || (!request.messages().isEmpty() && request.messages().get(0) instanceof SystemMessage system
				&& system.text().startsWith("You plan work for an assistant"));
	}

	/** One step per part of the goal, each on its own. */
	private static String planOf(String goal) {
		ArrayNode steps = AgentJson.mapper().createArrayNode();
		for (String part : STEP_SEPARATOR.split(goal.strip())) {
			if (!part.isBlank()) {
				steps.addObject().put("description", part.strip()).putArray("dependsOn");
			}
		}
		ObjectNode plan = AgentJson.mapper().createObjectNode();
		plan.set("steps", steps);
		return plan.toString();
	}

	/** The step a plan-and-execute turn asks for ("... Step 2: Convert 10 km to miles"), or the whole message. */
	private static String currentStep(String question) {
		Matcher step = PLAN_STEP.matcher(question);
		String current = question;
		while (step.find()) {
			current = step.group(1);
		}
		return current;
	}

	/** Decide which tool to call for the question, if any. */
	private static @Nullable ToolCall plan(String question, int position) {
		String id = "call_demo_" + position;
		Matcher cancel = CANCEL.matcher(question);
		if (cancel.find()) {
			return new ToolCall(id, "cancel_order", "{\"orderId\":\"" + orderId(cancel.group(1)) + "\"}");
		}
		Matcher order = ORDER.matcher(question);
		if (order.find()) {
			return new ToolCall(id, "get_order_status", "{\"orderId\":\"" + orderId(order.group(1)) + "\"}");
		}
		Matcher conversion = CONVERSION.matcher(question);
		if (conversion.find()) {
			String value = conversion.group(1).replace(',', '.');
			return new ToolCall(id, "convert_units", "{\"value\":" + value + ",\"from\":\"" + json(conversion.group(2))
					+ "\",\"to\":\"" + json(conversion.group(3)) + "\"}");
		}
		if (POLICY.matcher(question).find()) {
			return new ToolCall(id, "retrieve", "{\"query\":\"" + json(question) + "\",\"top_k\":1}");
		}
		if (WEATHER.matcher(question).find()) {
			Matcher city = CITY.matcher(question);
			if (city.find()) {
				return new ToolCall(id, "get_weather", "{\"city\":\"" + json(city.group(1).strip()) + "\"}");
			}
		}
		return null;
	}

	private static String orderId(String text) {
		String orderId = text.toUpperCase(Locale.ROOT);
		return orderId.contains("-") ? orderId : orderId.charAt(0) + "-" + orderId.substring(1);
	}

	/** The "Today is ..." sentence of the system prompt, if it has one. */
	private static @Nullable String today(List<Message> messages) {
		if (!messages.isEmpty() && messages.get(0) instanceof SystemMessage system) {
			Matcher today = TODAY.matcher(system.text());
			if (today.find()) {
				return today.group();
			}
		}
		return null;
	}

	/** Quote the results of the tool calls that the last assistant message asked for. */
	private static ChatResponse answerFromToolResults(List<Message> messages) {
		List<String> results = new ArrayList<>();
		for (int i = messages.size() - 1; i >= 0 && messages.get(i) instanceof ToolResultMessage marked; i--) {
			ToolResultMessage result = new ToolResultMessage(marked.toolCallId(), marked.toolName(),
					unmarked(marked.text()), marked.error());
			String text = RETRIEVE.equals(result.toolName()) ? bestPage(result.text()) : result.text();
			String mcp = DemoFileScript.answer(result);
			results.add(0, (mcp != null) ? mcp : text);
		}
		String answer = String.join(" ", results);
		// the answers of the librarian's MCP tools say themselves that they come from the script
		return ScriptedChatModel.text(answer.startsWith("(demo)") ? answer : "Here is what I found: " + answer);
	}

	/**
	 * The text of a tool result without the untrusted-content block the agent wraps it in
	 * (agent.untrusted-content): a real model reads the block as data; the script quotes it.
	 */
	static String unmarked(String text) {
		Matcher block = UNTRUSTED_BLOCK.matcher(text);
		return block.matches() ? block.group(2).replace("&lt;", "<") : text;
	}

	/**
	 * The researcher's answer: the best page the search found, quoted and named, and the
	 * other pages it found as further reading.
	 */
	private static ChatResponse answerFromPages(List<Message> messages) {
		Message last = messages.get(messages.size() - 1);
		JsonNode results = AgentJson.mapper().readTree(unmarked(((ToolResultMessage) last).text())).path("results");
		if (results.isEmpty()) {
			return ScriptedChatModel.text("(demo) No page of the knowledge base covers that.");
		}
		JsonNode best = results.get(0);
		StringBuilder answer = new StringBuilder("(demo) According to the page \"")
			.append(best.path("title").asString())
			.append("\": ")
			.append(best.path("content").asString().strip());
		List<String> others = new ArrayList<>();
		for (int i = 1; i < results.size(); i++) {
			others.add("\"" + results.get(i).path("title").asString() + "\"");
		}
		if (!others.isEmpty()) {
			answer.append("\nSee also: ").append(String.join(", ", others)).append('.');
		}
		return ScriptedChatModel.text(answer.toString());
	}

	/** The title and content of the best page a retrieve call found. */
	private static String bestPage(String json) {
		JsonNode results = AgentJson.mapper().readTree(json).path("results");
		if (results.isEmpty()) {
			return "the knowledge base has no page about that.";
		}
		JsonNode page = results.get(0);
		return page.path("title").asString() + ": " + page.path("content").asString();
	}

	private static String help(ChatRequest request) {
		if (request.tools().isEmpty()) {
			return "(demo) I am a scripted stand-in, not a model, and this agent has no tools right now "
					+ "(an MCP server it uses may not be connected yet: it needs Node.js and npx). "
					+ "Set OPENAI_API_KEY to talk to a real model.";
		}
		return "(demo) I am a scripted stand-in, not a model, because no API key is configured. "
				+ "Try: \"What's the weather in Paris?\", \"Convert 10 km to miles\", \"Where is order A-1001?\" or "
				+ "\"Cancel order A-1002\" (it waits for your approval) or \"What is your return policy?\". "
				+ "Set OPENAI_API_KEY to talk to a real model.";
	}

	static String json(String text) {
		return StringUtils.replace(StringUtils.replace(text, "\\", "\\\\"), "\"", "\\\"");
	}

}
