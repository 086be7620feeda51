package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ModelCapability;
import dev.agcore.model.ToolCallFormat;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolCallback;
import org.junit.jupiter.api.Test;

import static dev.agcore.testing.ScriptedChatModel.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An agent turn with a model that writes its tool calls as {@code <use_tool>} blocks.
 */
class XmlToolCallAgentTests {

	private static final String CALL = """
			Let me check the weather.
			<use_tool>
			<name>get_weather</name>
			<args>{"city": "Paris"}</args>
			</use_tool>
			""";

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	@Test
	void aModelWithoutToolsGetsThemInItsPromptAndItsBlocksRunAsCalls() {
		ScriptedChatModel model = textOnly(text(CALL), text("It is sunny in Paris."));
		Agent agent = agent(model, ToolCallFormat.AUTO);

		AgentResult result = agent.call("s1", "Weather in Paris?");

		assertThat(result.output()).isEqualTo("It is sunny in Paris.");
		assertThat(result.toolExecutions()).singleElement()
			.isEqualTo(new ToolExecution("xml_1", "get_weather", "{\"city\": \"Paris\"}", "sunny, 21°C in Paris", false));
		ChatRequest first = model.requests().get(0);
		assertThat(first.tools()).isEmpty();
		assertThat(((SystemMessage) first.messages().get(0)).text()).startsWith("You report weather.")
			.contains("<use_tool>", "## get_weather", "test tool get_weather", "{\"type\":\"object\"");
		ChatRequest second = model.requests().get(1);
		assertThat(second.messages()).noneMatch((message) -> message instanceof ToolResultMessage);
		assertThat(second.messages().get(2)).isInstanceOfSatisfying(AssistantMessage.class, (assistant) -> {
			assertThat(assistant.hasToolCalls()).isFalse();
			assertThat(assistant.text()).startsWith("Let me check the weather.\n<use_tool>\n<name>get_weather</name>");
		});
		assertThat(second.messages().get(3)).isInstanceOfSatisfying(UserMessage.class, (user) -> assertThat(user.text())
			.isEqualTo("<tool_result name=\"get_weather\" id=\"xml_1\">\nsunny, 21°C in Paris\n</tool_result>"));
		// the stored conversation holds ordinary calls and results
		List<Message> stored = this.store.load("s1").block(Duration.ofSeconds(5)).messages();
		assertThat(stored.get(1)).isEqualTo(new AssistantMessage("Let me check the weather.",
				List.of(new ToolCall("xml_1", "get_weather", "{\"city\": \"Paris\"}")))
			.withAgent("weather"));
		assertThat(stored.get(2)).isInstanceOfSatisfying(ToolResultMessage.class,
				(toolResult) -> assertThat(toolResult.toolCallId()).isEqualTo("xml_1"));
	}

	@Test
	void streamedBlocksNeverReachTheTextEventsAndEachCallIsAnEvent() {
		ScriptedChatModel model = textOnly(text(CALL), text("It is sunny in Paris."));
		Agent agent = agent(model, ToolCallFormat.AUTO);

		List<AgentEvent> events = agent.stream(AgentRequest.of("s1", "Weather in Paris?"))
			.collectList()
			.block(Duration.ofSeconds(5));

		String streamed = events.stream()
			.filter(AgentEvent.TextDelta.class::isInstance)
			.map((event) -> ((AgentEvent.TextDelta) event).text())
			.reduce("", String::concat);
		assertThat(streamed).isEqualTo("Let me check the weather.It is sunny in Paris.").doesNotContain("<use_tool");
		assertThat(events).noneMatch(AgentEvent.TextReset.class::isInstance);
		assertThat(events).filteredOn(AgentEvent.ToolCallStarted.class::isInstance)
			.singleElement()
			.isEqualTo(new AgentEvent.ToolCallStarted("xml_1", "get_weather", "{\"city\": \"Paris\"}"));
		assertThat(events.get(events.size() - 1)).isInstanceOfSatisfying(AgentEvent.Completed.class,
				(completed) -> assertThat(completed.result().output()).isEqualTo("It is sunny in Paris."));
	}

	@Test
	void invalidArgumentsAreReportedBackSoTheModelCanRetry() {
		ScriptedChatModel model = textOnly(text("<use_tool><name>get_weather</name><args>city=Paris</args></use_tool>"),
				text(CALL), text("Sunny."));
		Agent agent = agent(model, ToolCallFormat.AUTO);

		AgentResult result = agent.call("s1", "Weather in Paris?");

		assertThat(result.output()).isEqualTo("Sunny.");
		assertThat(model.requests().get(1).messages().get(3).text()).startsWith(
				"<tool_result name=\"get_weather\" id=\"xml_1\" error=\"true\">\nError: invalid arguments for tool 'get_weather'");
		// ids continue across the turn's responses
		assertThat(model.requests().get(2).messages().get(5).text()).contains("id=\"xml_2\"");
	}

	@Test
	void autoKeepsNativeToolsForAModelThatHasThem() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text(CALL));
		Agent agent = agent(model, ToolCallFormat.AUTO);

		AgentResult result = agent.call("s1", "Weather in Paris?");

		assertThat(result.output()).isEqualTo(CALL);
		assertThat(model.requests().get(0).tools()).extracting("name").containsExactly("get_weather");
	}

	@Test
	void xmlIsUsedForAModelWithToolsWhenChosen() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text(CALL), text("Sunny."));
		Agent agent = Agent.builder()
			.name("weather")
			.model(model)
			.tool(weather())
			.xmlToolCalls(true)
			.build();

		assertThat(agent.call("s1", "Weather in Paris?").output()).isEqualTo("Sunny.");
		assertThat(model.requests().get(0).tools()).isEmpty();
	}

	@Test
	void nativeSendsToolsEvenToAModelWithoutThem() {
		ScriptedChatModel model = textOnly(text("Sunny."));
		Agent agent = agent(model, ToolCallFormat.NATIVE);

		agent.call("s1", "Weather in Paris?");

		assertThat(model.requests().get(0).tools()).hasSize(1);
	}

	private Agent agent(ScriptedChatModel model, ToolCallFormat format) {
		return Agent.builder()
			.name("weather")
			.model(model)
			.systemPrompt("You report weather.")
			.tool(weather())
			.toolCallFormat(format)
			.conversationStore(this.store)
			.build();
	}

	private static ToolCallback weather() {
		return TestTools.tool("get_weather", (args, ctx) -> {
			if (!args.trim().startsWith("{")) {
				throw new ToolArgumentsException("Arguments must be a JSON object");
			}
			return "sunny, 21°C in Paris";
		});
	}

	private static ScriptedChatModel textOnly(ChatResponse... responses) {
		return ScriptedChatModel.replaying(responses).withCapabilities(ModelCapability.STREAMING);
	}

}
