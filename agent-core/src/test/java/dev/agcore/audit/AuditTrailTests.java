package dev.agcore.audit;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agcore.Tool;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.ToolCall;
import dev.agcore.middleware.approval.HumanInTheLoopMiddleware;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentBuilder;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.ResumeRequest;
import dev.agcore.runtime.ToolDecision;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.method.MethodTools;
import dev.agcore.tool.permission.PermissionDecision;
import dev.agcore.tool.secret.SecretResolver;
import org.junit.jupiter.api.Test;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

/**
 * Every tool call, permission denial and approval decision is published as an audit
 * event, with the secrets a call resolved and personal data redacted, and arguments
 * bounded.
 */
class AuditTrailTests {

	private static final String SECRET = "tok-7f3a9c2e51b8d4";

	private final List<AuditEvent> events = new CopyOnWriteArrayList<>();

	private final Mailer mailer = new Mailer();

	@Test
	void toolCallIsAuditedWithSecretAndEmailRedacted() {
		// the model writes the secret's value out in a parameter of no secret: it is put back as its reference
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "send_mail",
				"{\"to\":\"jane.doe@example.com\",\"apiKey\":\"<secret_ref:MAIL_KEY>\",\"body\":\"key " + SECRET
						+ "\"}")),
				text("sent"));

		agent(model).call(new AgentRequest("s1", "mail jane", Map.of(), "alice"));

		assertThat(this.mailer.keys).containsExactly(SECRET);
		assertThat(this.events).singleElement().satisfies((event) -> {
			assertThat(event.kind()).isEqualTo(AuditEvent.Kind.TOOL_CALL);
			assertThat(event.agent()).isEqualTo("mailer");
			assertThat(event.sessionId()).isEqualTo("s1");
			assertThat(event.userId()).isEqualTo("alice");
			assertThat(event.tool()).isEqualTo("send_mail");
			assertThat(event.toolCallId()).isEqualTo("c1");
			assertThat(event.outcome()).isEqualTo("success");
			assertThat(event.arguments()).doesNotContain(SECRET, "jane.doe")
				.contains("[REDACTED_EMAIL]", "<secret_ref:MAIL_KEY>");
			assertThat(event.time()).isNotNull();
		});
	}

	@Test
	void permissionDenialIsAudited() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "send_mail", "{\"to\":\"x@example.org\",\"apiKey\":\"k\",\"body\":\"b\"}")),
				text("could not"));
		Agent agent = builder(model)
			.permissionPolicy((agentName, tool, call) -> PermissionDecision.deny("mail is off for agent " + agentName))
			.build();

		agent.call("s1", "mail");

		assertThat(this.mailer.keys).isEmpty();
		assertThat(this.events).singleElement().satisfies((event) -> {
			assertThat(event.kind()).isEqualTo(AuditEvent.Kind.PERMISSION_DENIED);
			assertThat(event.outcome()).isEqualTo("denied");
			assertThat(event.detail()).isEqualTo("mail is off for agent mailer");
			assertThat(event.userId()).isNull();
		});
	}

	@Test
	void approvalDecisionsAreAuditedThenTheCallTheyLetRun() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(
				new ToolCall("c1", "send_mail", "{\"to\":\"a@example.org\",\"apiKey\":\"k\",\"body\":\"one\"}"),
				new ToolCall("c2", "send_mail", "{\"to\":\"b@example.org\",\"apiKey\":\"k\",\"body\":\"two\"}")),
				text("done"));
		InMemoryConversationStore store = new InMemoryConversationStore();
		Agent agent = builder(model).conversationStore(store)
			.middleware(new HumanInTheLoopMiddleware(Map.of("send_mail", "sends mail")))
			.build();
		AgentResult paused = agent.call(new AgentRequest("s1", "mail both", Map.of(), "alice"));
		assertThat(paused.isInterrupted()).isTrue();

		agent.resume(ResumeRequest.of("s1", Map.of("c1", ToolDecision.approve(), "c2", ToolDecision.reject("no"))))
			.block(Duration.ofSeconds(5));

		assertThat(this.events).extracting(AuditEvent::kind, AuditEvent::toolCallId, AuditEvent::outcome)
			.containsExactlyInAnyOrder(tuple(AuditEvent.Kind.APPROVAL, "c1", "approved"),
					tuple(AuditEvent.Kind.APPROVAL, "c2", "rejected"),
					tuple(AuditEvent.Kind.TOOL_CALL, "c1", "success"));
		assertThat(this.events).filteredOn((event) -> event.kind() == AuditEvent.Kind.APPROVAL)
			.allSatisfy((event) -> assertThat(event.arguments()).contains("[REDACTED_EMAIL]"));
	}

	@Test
	void argumentsAreBoundedAndAFailingListenerDoesNotFailTheTurn() {
		String body = "x".repeat(5000);
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "send_mail",
				"{\"to\":\"a@example.org\",\"apiKey\":\"k\",\"body\":\"" + body + "\"}")), text("sent"));
		Agent bounded = builder(model).auditor(Auditor.of(this.events::add, 100, Clock.systemUTC())).build();

		bounded.call("s1", "mail");

		assertThat(this.events).singleElement()
			.satisfies((event) -> assertThat(event.arguments()).hasSizeLessThan(130).endsWith("more characters]"));
		Agent failing = builder(ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "send_mail",
				"{\"to\":\"a@example.org\",\"apiKey\":\"k\",\"body\":\"b\"}")), text("sent")))
			.auditor(Auditor.of((event) -> {
				throw new IllegalStateException("audit store down");
			}))
			.build();
		assertThat(failing.call("s2", "mail").output()).isEqualTo("sent");
	}

	private Agent agent(ScriptedChatModel model) {
		return builder(model).build();
	}

	private AgentBuilder builder(ScriptedChatModel model) {
		return Agent.builder()
			.name("mailer")
			.model(model)
			.tools(MethodTools.from(this.mailer))
			.secretResolver(SecretResolver.of(Map.of("MAIL_KEY", SECRET)))
			.auditor(Auditor.of(this.events::add));
	}

	static class Mailer {

		final List<String> keys = new CopyOnWriteArrayList<>();

		@Tool(name = "send_mail", secrets = "apiKey")
		String send(String to, String apiKey, String body) {
			this.keys.add(apiKey);
			return "sent to " + to;
		}

	}

}
