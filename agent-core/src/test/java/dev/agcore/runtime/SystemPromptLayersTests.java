package dev.agcore.runtime;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.SessionMemory;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.model.ChatRequest;
import dev.agcore.prompt.PromptException;
import dev.agcore.prompt.PromptTemplates;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for the layered system prompt: base, the agent's prompt (text or a template
 * rendered per call), environment, session context and the request's instructions.
 */
class SystemPromptLayersTests {

	private static final Clock THURSDAY = Clock.fixed(Instant.parse("2026-11-26T23:30:00Z"), ZoneId.of("UTC"));

	private final InMemoryKeyValueStore store = new InMemoryKeyValueStore();

	private final PromptTemplates templates = new PromptTemplates();

	@Test
	void layersComeInOrderAndEmptyOnesAreDropped() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("ok"));
		SessionMemory.of(this.store, "s1").put("plan", "pro");
		Agent agent = Agent.builder()
			.name("support")
			.model(model)
			.store(this.store)
			.basePrompt("Follow the company rules.")
			.systemPrompt("You are the support agent.")
			.environment(new EnvironmentContext(true, ZoneId.of("Europe/Berlin"), true, Map.of("Shop", "Tea & Co")))
			.clock(THURSDAY)
			.build();

		agent.call(AgentRequest.of("s1", "hi").withInstructions("Answer in German.").withLocale(Locale.GERMANY));

		assertThat(systemPrompt(model, 0)).isEqualTo("""
				Follow the company rules.

				You are the support agent.

				<environment>
				Today's date: 2026-11-27 (Friday)
				User locale: de-DE
				Shop: Tea & Co
				</environment>

				<session-context>
				plan: pro
				</session-context>

				Answer in German.""");
	}

	@Test
	void withoutLayersThereIsNoSystemMessage() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("ok"));

		Agent.builder().name("a").model(model).environment(new EnvironmentContext(false, ZoneId.of("UTC"), true,
				Map.of())).build().call(AgentRequest.of("s1", "hi"));

		assertThat(model.requests().get(0).messages()).extracting(Message::role)
			.extracting(Enum::name)
			.containsExactly("USER");
	}

	@Test
	void aDynamicPromptReplacesTheAgentsLayerOnly() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("ok"));
		SessionMemory.of(this.store, "s1").put("plan", "pro");
		AgentMiddleware dynamic = new AgentMiddleware() {

			@Override
			public ChatRequest beforeModel(AgentContext context, ChatRequest request) {
				return request.withSystemPrompt("Replaced.");
			}

		};
		Agent agent = Agent.builder()
			.name("a")
			.model(model)
			.store(this.store)
			.basePrompt("Base.")
			.systemPrompt("Original.")
			.middleware(dynamic)
			.build();

		agent.call(AgentRequest.of("s1", "hi").withInstructions("Be brief."));

		assertThat(systemPrompt(model, 0))
			.isEqualTo("Base.\n\nReplaced.\n\n<session-context>\nplan: pro\n</session-context>\n\nBe brief.");
	}

	@Test
	void aTemplatePromptIsRenderedForEveryModelCallWithSessionAndRequestValues() {
		this.templates.register("support/system",
				"You help {{request.customer}} ({{userId}}) in session {{sessionId}} as {{agent}} of {{shop}}."
						+ "{{#if session.vip}} VIP since {{session.vip.since}}.{{/if}}");
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "promote", "{}")),
				text("done"));
		Agent agent = Agent.builder()
			.name("support")
			.model(model)
			.store(this.store)
			.sessionContext(false)
			.systemPrompt(new SystemPromptTemplate(this.templates.get("support/system"), Map.of("shop", "Tea & Co")))
			.tool(TestTools.tool("promote",
					(args, context) -> {
						context.memory().put("vip", Map.of("since", 2024));
						return "promoted";
					}))
			.build();

		agent.call(new AgentRequest("s1", "make me VIP", Map.of("customer", "Ada")).withUserId("u-1"));

		assertThat(systemPrompt(model, 0)).isEqualTo("You help Ada (u-1) in session s1 as support of Tea & Co.");
		// the session was read at turn start: the tool's write shows from the next turn on
		assertThat(systemPrompt(model, 1)).isEqualTo("You help Ada (u-1) in session s1 as support of Tea & Co.");
		assertThat(agent.systemPrompt()).startsWith("You help {{request.customer}}");
	}

	@Test
	void aTemplateSeesSessionMemoryWrittenBeforeTheTurn() {
		this.templates.register("t", "{{#if session.vip}}VIP since {{session.vip.since}}{{else}}regular{{/if}}");
		ScriptedChatModel model = ScriptedChatModel.replaying(text("one"), text("two"));
		Agent agent = Agent.builder()
			.name("a")
			.model(model)
			.store(this.store)
			.sessionContext(false)
			.systemPrompt(new SystemPromptTemplate(this.templates.get("t"), Map.of()))
			.build();

		agent.call("s1", "first");
		SessionMemory.of(this.store, "s1").put("vip", Map.of("since", 2024));
		agent.call("s1", "second");

		assertThat(systemPrompt(model, 0)).isEqualTo("regular");
		assertThat(systemPrompt(model, 1)).isEqualTo("VIP since 2024");
	}

	@Test
	void variableSourcesAreAskedOnEveryModelCallAndWinOverTheAgentsVariables() {
		this.templates.register("t", "{{greeting}}, {{name}} (call {{count}})");
		AtomicInteger asked = new AtomicInteger();
		SystemPromptVariables source = (context) -> Mono.just(
				Map.of("name", "Ada of " + context.agentName(), "count", asked.incrementAndGet()));
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "noop", "{}")),
				text("done"));
		Agent agent = Agent.builder()
			.name("support")
			.model(model)
			.systemPrompt(new SystemPromptTemplate(this.templates.get("t"), Map.of("greeting", "Hello", "name", "x"),
					List.of(source)))
			.tool(TestTools.tool("noop", (args, context) -> "ok"))
			.build();

		agent.call("s1", "hi");

		assertThat(systemPrompt(model, 0)).isEqualTo("Hello, Ada of support (call 1)");
		assertThat(systemPrompt(model, 1)).isEqualTo("Hello, Ada of support (call 2)");
	}

	@Test
	void aTemplateMissingAVariableFailsTheTurnNamingIt() {
		this.templates.register("t", "Hello {{customer}}");
		Agent agent = Agent.builder()
			.name("a")
			.model(ScriptedChatModel.replaying(text("never")))
			.systemPrompt(new SystemPromptTemplate(this.templates.get("t"), Map.of()))
			.build();

		assertThatExceptionOfType(PromptException.class).isThrownBy(() -> agent.call("s1", "hi"))
			.withMessageContaining("variable 'customer' not found");
	}

	private static String systemPrompt(ScriptedChatModel model, int call) {
		List<Message> messages = model.requests().get(call).messages();
		assertThat(messages.get(0)).isInstanceOf(SystemMessage.class);
		return messages.get(0).text();
	}

}
