package dev.agcore.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.UserMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ModelCapability;
import dev.agcore.model.ResponseFormat;
import dev.agcore.testing.ScriptedChatModel;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for structured output: {@link Agent#call(AgentRequest, Class)} and a JSON schema
 * in the request options.
 */
class StructuredOutputAgentTests {

	record Weather(@NotBlank String city, @Max(60) int celsius) {
	}

	@Test
	void theJsonIsFoundInFencesAndProse() {
		assertThat(StructuredAnswers.extractJson("```json\n{\"a\": 1}\n```")).isEqualTo("{\"a\": 1}");
		assertThat(StructuredAnswers.extractJson("```\n[1, 2]\n```")).isEqualTo("[1, 2]");
		assertThat(StructuredAnswers.extractJson("Sure! {\"a\": {\"b\": 2}} Hope it helps.")).isEqualTo("{\"a\": {\"b\": 2}}");
		assertThat(StructuredAnswers.extractJson("  [{\"a\": 1}]  ")).isEqualTo("[{\"a\": 1}]");
		assertThat(StructuredAnswers.extractJson("no json here")).isEqualTo("no json here");
	}

	@Test
	void aValidAnswerIsMappedToTheType() {
		ScriptedChatModel model = ScriptedChatModel
			.replaying(text("Here you go:\n```json\n{\"city\": \"Paris\", \"celsius\": 21}\n```\nEnjoy!"));
		Agent agent = Agent.builder().name("w").model(model).systemPrompt("You report weather.").build();

		StructuredResult<Weather> result = agent.invokeStructured(AgentRequest.of("s1", "Paris?"), Weather.class)
			.block(Duration.ofSeconds(5));

		assertThat(result.value()).isEqualTo(new Weather("Paris", 21));
		assertThat(result.result().output()).isEqualTo("{\"city\": \"Paris\", \"celsius\": 21}");
		assertThat(model.requests()).hasSize(1);
	}

	@Test
	void aModelWithoutNativeStructuredOutputGetsTheSchemaAsInstructions() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("{\"city\":\"Oslo\",\"celsius\":3}"));
		Agent agent = Agent.builder().name("w").model(model).systemPrompt("You report weather.").build();

		assertThat(agent.call(AgentRequest.of("s1", "Oslo?"), Weather.class)).isEqualTo(new Weather("Oslo", 3));

		assertThat(model.requests().get(0).options().responseFormat()).isNull();
		Message system = model.requests().get(0).messages().get(0);
		assertThat(system).isInstanceOf(SystemMessage.class);
		assertThat(system.text()).startsWith("You report weather.\n\nAnswer only with a JSON value matching this schema")
			.contains("\"celsius\"")
			.contains("\"city\"");
	}

	@Test
	void middlewareThatReplacesTheSystemPromptKeepsTheSchemaInstructions() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("{\"city\":\"Oslo\",\"celsius\":3}"));
		AgentMiddleware dynamicPrompt = new AgentMiddleware() {
			@Override
			public ChatRequest beforeModel(AgentContext context, ChatRequest request) {
				List<Message> messages = new ArrayList<>(request.messages());
				messages.set(0, new SystemMessage("Today is Sunday."));
				return new ChatRequest(messages, request.tools(), request.options());
			}
		};
		Agent agent = Agent.builder()
			.name("w")
			.model(model)
			.systemPrompt("You report weather.")
			.middleware(dynamicPrompt)
			.build();

		assertThat(agent.call(AgentRequest.of("s1", "Oslo?"), Weather.class)).isEqualTo(new Weather("Oslo", 3));

		assertThat(model.requests().get(0).messages().get(0).text())
			.startsWith("Today is Sunday.\n\nAnswer only with a JSON value matching this schema")
			.contains("\"celsius\"");
	}

	@Test
	void middlewareThatRemovesTheSystemPromptKeepsTheSchemaInstructions() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("{\"city\":\"Oslo\",\"celsius\":3}"));
		AgentMiddleware noPrompt = new AgentMiddleware() {
			@Override
			public ChatRequest beforeModel(AgentContext context, ChatRequest request) {
				return new ChatRequest(request.messages().subList(1, request.messages().size()), request.tools(),
						request.options());
			}
		};
		Agent agent = Agent.builder()
			.name("w")
			.model(model)
			.systemPrompt("You report weather.")
			.middleware(noPrompt)
			.build();

		assertThat(agent.call(AgentRequest.of("s1", "Oslo?"), Weather.class)).isEqualTo(new Weather("Oslo", 3));

		List<Message> sent = model.requests().get(0).messages();
		assertThat(sent.get(0)).isInstanceOf(SystemMessage.class);
		assertThat(sent.get(0).text()).startsWith("Answer only with a JSON value matching this schema");
		assertThat(sent.get(1).text()).isEqualTo("Oslo?");
	}

	@Test
	void aModelWithNativeStructuredOutputGetsTheSchemaAsResponseFormat() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("{\"city\":\"Oslo\",\"celsius\":3}"))
			.withCapabilities(ModelCapability.TOOLS, ModelCapability.STRUCTURED_OUTPUT);
		Agent agent = Agent.builder().name("w").model(model).systemPrompt("You report weather.").build();

		assertThat(agent.invoke(AgentRequest.of("s1", "Oslo?"), Weather.class).block(Duration.ofSeconds(5)))
			.isEqualTo(new Weather("Oslo", 3));

		ResponseFormat format = model.requests().get(0).options().responseFormat();
		assertThat(format.type()).isEqualTo(ResponseFormat.Type.JSON_SCHEMA);
		assertThat(format.name()).isEqualTo("Weather");
		assertThat(format.strict()).isTrue();
		assertThat(format.schema().path("properties").has("celsius")).isTrue();
		assertThat(model.requests().get(0).messages().get(0).text()).isEqualTo("You report weather.");
	}

	@Test
	void anInvalidAnswerIsRepairedOnceWithTheError() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("{\"city\":\"Paris\",\"celsius\":99}"),
				text("{\"city\":\"Paris\",\"celsius\":21}"));
		Agent agent = Agent.builder().name("w").model(model).build();

		StructuredResult<Weather> result = agent.invokeStructured(AgentRequest.of("s1", "Paris?"), Weather.class)
			.block(Duration.ofSeconds(5));

		assertThat(result.value()).isEqualTo(new Weather("Paris", 21));
		assertThat(model.requests()).hasSize(2);
		Message repair = model.requests().get(1).messages().get(model.requests().get(1).messages().size() - 1);
		assertThat(repair).isInstanceOf(UserMessage.class);
		assertThat(repair.text()).startsWith("Your answer could not be used: 'celsius' must be less than or equal to 60");
	}

	@Test
	void aSecondInvalidAnswerFailsClearlyAndStoresNothing() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("I think it is sunny."), text("Sunny, 21 degrees."));
		Agent agent = Agent.builder().name("w").model(model).build();

		assertThatExceptionOfType(StructuredOutputException.class)
			.isThrownBy(() -> agent.call(AgentRequest.of("s1", "Paris?"), Weather.class))
			.withMessageContaining("Agent 'w' gave no valid structured answer after one retry")
			.withMessageContaining("not valid JSON for Weather")
			.withMessageContaining("answer was: Sunny, 21 degrees.")
			.satisfies((ex) -> assertThat(ex.code()).isEqualTo("structured_output_invalid"));
		assertThat(model.requests()).hasSize(2);
		assertThat(agent.history("s1").block()).isEmpty();
	}

	@Test
	void toolsRunInTheSameTurnBeforeTheStructuredAnswer() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "get_weather", "{\"city\":\"Paris\"}")),
				text("{\"city\":\"Paris\",\"celsius\":21}"));
		Agent agent = Agent.builder()
			.name("w")
			.model(model)
			.tool(TestTools.tool("get_weather", (args, ctx) -> "21C"))
			.build();

		StructuredResult<Weather> result = agent.invokeStructured(AgentRequest.of("s1", "Paris?"), Weather.class)
			.block(Duration.ofSeconds(5));

		assertThat(result.value()).isEqualTo(new Weather("Paris", 21));
		assertThat(result.result().toolExecutions()).extracting(ToolExecution::result).containsExactly("21C");
		assertThat(model.requests()).hasSize(2);
		assertThat(model.requests().get(1).tools()).extracting("name").containsExactly("get_weather");
	}

	@Test
	void aJsonSchemaInTheRequestOptionsMakesTheOutputCheckedJson() {
		ObjectNode schema = JsonNodeFactory.instance.objectNode();
		schema.put("type", "object");
		schema.putObject("properties").putObject("answer").put("type", "string");
		schema.putArray("required").add("answer");
		ScriptedChatModel model = ScriptedChatModel.replaying(text("{\"other\": 1}"), text("Sure: {\"answer\": \"42\"}"));
		Agent agent = Agent.builder().name("q").model(model).build();
		AgentRequest request = AgentRequest.of("s1", "?")
			.withOptions(ChatOptions.builder().responseFormat(ResponseFormat.jsonSchema("reply", schema)).build());

		List<AgentEvent> events = agent.stream(request).collectList().block(Duration.ofSeconds(5));

		AgentEvent last = events.get(events.size() - 1);
		assertThat(last).isInstanceOf(AgentEvent.Completed.class);
		assertThat(((AgentEvent.Completed) last).result().output()).isEqualTo("{\"answer\": \"42\"}");
		// the first, invalid answer was shown, then voided
		assertThat(events).contains(new AgentEvent.TextReset());
		List<Message> second = model.requests().get(1).messages();
		assertThat(second.get(0).text()).startsWith("Answer only with a JSON value matching this schema");
		assertThat(second.get(second.size() - 1).text())
			.startsWith("Your answer could not be used: the answer misses the required property 'answer'");
	}

}
