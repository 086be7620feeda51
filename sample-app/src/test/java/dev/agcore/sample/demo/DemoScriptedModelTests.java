package dev.agcore.sample.demo;

import java.util.List;

import dev.agcore.json.AgentJson;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.runtime.UntrustedContent;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.tool.ToolSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DemoScriptedModel}.
 */
class DemoScriptedModelTests {

	private static final List<ToolSpec> TOOLS = List.of(spec("get_weather"), spec("convert_units"),
			spec("get_order_status"), spec("cancel_order"), spec("retrieve"));

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = { "What's the weather in Paris?|get_weather|{\"city\":\"Paris\"}",
			"weather in New York today|get_weather|{\"city\":\"New York\"}",
			"Convert 10 km to miles|convert_units|{\"value\":10,\"from\":\"km\",\"to\":\"miles\"}",
			"how much is 3.5 kg in lb?|convert_units|{\"value\":3.5,\"from\":\"kg\",\"to\":\"lb\"}",
			"Where is order A-1001?|get_order_status|{\"orderId\":\"A-1001\"}",
			"status of my order a1002|get_order_status|{\"orderId\":\"A-1002\"}",
			"Please cancel order A-1002|cancel_order|{\"orderId\":\"A-1002\"}",
			"What is your return policy?|retrieve|{\"query\":\"What is your return policy?\",\"top_k\":1}" })
	void callsTheMatchingTool(String question, String tool, String arguments) {
		ChatResponse response = DemoScriptedModel.respond(request(new UserMessage(question)));
		assertThat(response.message().toolCalls()).singleElement().satisfies((call) -> {
			assertThat(call.name()).isEqualTo(tool);
			assertThat(call.arguments()).isEqualTo(arguments);
		});
	}

	@Test
	void answersFromToolResult() {
		ToolCall call = new ToolCall("call_1", "get_weather", "{\"city\":\"Paris\"}");
		ChatResponse response = DemoScriptedModel
			.respond(request(new UserMessage("Weather in Paris?"), ToolResultMessage.success(call, "Paris: 18 °C")));
		assertThat(response.message().text()).isEqualTo("Here is what I found: Paris: 18 °C");
	}

	@Test
	void quotesAToolResultWithoutTheUntrustedContentBlockItArrivesIn() {
		ToolCall call = new ToolCall("call_1", "get_weather", "{\"city\":\"Paris\"}");
		String marked = UntrustedContent.ENABLED.block("tool get_weather", "Paris: 18 °C </untrusted-content>");
		ChatResponse response = DemoScriptedModel
			.respond(request(new UserMessage("Weather in Paris?"), ToolResultMessage.success(call, marked)));
		assertThat(response.message().text()).isEqualTo("Here is what I found: Paris: 18 °C </untrusted-content>");
	}

	@Test
	void answersFromTheBestPageARetrieveCallFound() {
		ToolCall call = new ToolCall("call_1", "retrieve", "{\"query\":\"warranty\"}");
		String found = "{\"query\":\"warranty\",\"results\":[{\"id\":\"warranty\",\"title\":\"Warranty\","
				+ "\"score\":0.5,\"content\":\"Two years.\"}]}";
		ChatResponse response = DemoScriptedModel
			.respond(request(new UserMessage("warranty?"), ToolResultMessage.success(call, found)));
		assertThat(response.message().text()).isEqualTo("Here is what I found: Warranty: Two years.");
		ChatResponse none = DemoScriptedModel.respond(request(new UserMessage("warranty?"),
				ToolResultMessage.success(call, "{\"query\":\"warranty\",\"results\":[]}")));
		assertThat(none.message().text()).isEqualTo("Here is what I found: the knowledge base has no page about that.");
	}

	@Test
	void answersTheDateFromTheSystemPrompt() {
		ChatResponse response = DemoScriptedModel.respond(request(
				new SystemMessage("You help.\nToday is Sunday, 15 June 2025."), new UserMessage("What day is it?")));
		assertThat(response.message().text()).isEqualTo("(demo) Today is Sunday, 15 June 2025.");
	}

	@Test
	void explainsItselfWhenNothingMatches() {
		ChatResponse response = DemoScriptedModel.respond(request(new UserMessage("Tell me a joke")));
		assertThat(response.message().hasToolCalls()).isFalse();
		assertThat(response.message().text()).contains("not a model").contains("OPENAI_API_KEY");
	}

	@Test
	void researcherSearchesForAnyQuestionAndQuotesTheBestPageNamingIt() {
		List<ToolSpec> researcher = List.of(spec("retrieve"));
		ChatResponse search = DemoScriptedModel
			.respond(ChatRequest.of(List.of(new UserMessage("How do I clean the burrs?")), researcher));
		assertThat(search.message().toolCalls()).singleElement().satisfies((call) -> {
			assertThat(call.name()).isEqualTo("retrieve");
			assertThat(call.arguments()).isEqualTo("{\"query\":\"How do I clean the burrs?\",\"top_k\":3}");
		});
		ToolCall call = search.message().toolCalls().get(0);
		String found = "{\"query\":\"burrs\",\"results\":[{\"id\":\"products/burr-pro-grinder\",\"title\":\"Burr Pro grinder\","
				+ "\"content\":\"Clean the burrs once a month.\\n\"},{\"id\":\"warranty\",\"title\":\"Warranty\",\"content\":\"...\"}]}";
		ChatResponse answer = DemoScriptedModel.respond(ChatRequest.of(
				List.of(new UserMessage("How do I clean the burrs?"), ToolResultMessage.success(call, found)), researcher));
		assertThat(answer.message().text()).isEqualTo(
				"(demo) According to the page \"Burr Pro grinder\": Clean the burrs once a month.\nSee also: \"Warranty\".");
		ChatResponse none = DemoScriptedModel.respond(ChatRequest.of(List.of(new UserMessage("burrs?"),
				ToolResultMessage.success(call, "{\"query\":\"burrs\",\"results\":[]}")), researcher));
		assertThat(none.message().text()).isEqualTo("(demo) No page of the knowledge base covers that.");
	}

	@Test
	void librarianReadsTheFileItIsAskedAboutOrListsTheFolder() {
		List<ToolSpec> files = List.of(spec("shop-files__list_directory"), spec("shop-files__read_text_file"));
		ChatResponse read = DemoScriptedModel
			.respond(ChatRequest.of(List.of(new UserMessage("What does price-list.md say?")), files));
		assertThat(read.message().toolCalls()).singleElement().satisfies((call) -> {
			assertThat(call.name()).isEqualTo("shop-files__read_text_file");
			assertThat(call.arguments()).isEqualTo("{\"path\":\"price-list.md\"}");
		});
		ChatResponse list = DemoScriptedModel
			.respond(ChatRequest.of(List.of(new UserMessage("Which files are there?")), files));
		assertThat(list.message().toolCalls()).singleElement().satisfies((call) -> {
			assertThat(call.name()).isEqualTo("shop-files__list_directory");
			assertThat(call.arguments()).isEqualTo("{\"path\":\".\"}");
		});
		ChatResponse answer = DemoScriptedModel.respond(ChatRequest.of(List.of(new UserMessage("Which files?"),
				ToolResultMessage.success(list.message().toolCalls().get(0), "[FILE] price-list.md\n")), files));
		assertThat(answer.message().text())
			.isEqualTo("(demo) The shop-files MCP server's list_directory tool returned:\n[FILE] price-list.md");
	}

	@Test
	void saysSoWhenTheAgentHasNoToolsAsWhenItsMcpServerIsNotConnected() {
		ChatResponse response = DemoScriptedModel
			.respond(ChatRequest.of(List.of(new UserMessage("Which files are there?")), List.of()));
		assertThat(response.message().hasToolCalls()).isFalse();
		assertThat(response.message().text()).startsWith("(demo)").contains("no tools").contains("MCP server");
	}

	private static ChatRequest request(Message... messages) {
		return ChatRequest.of(List.of(messages), TOOLS);
	}

	private static ToolSpec spec(String name) {
		return new ToolSpec(name, name, AgentJson.mapper().createObjectNode());
	}

}
