package dev.agcore.runtime;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.Tool;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.model.ChatRequest;
import dev.agcore.observation.MicrometerAgentMetrics;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolDefinitionException;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.ToolRegistry;
import dev.agcore.tool.ToolScope;
import dev.agcore.tool.ToolSpec;
import dev.agcore.tool.method.MethodTools;
import dev.agcore.tool.permission.PermissionDecision;
import dev.agcore.tool.permission.ToolPermissionRules;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Permissions and scoping through the agent loop: what the model is offered, what it
 * may run, and what it is told when it may not.
 */
class AgentToolPolicyTests {

	private final NoteTools notes = new NoteTools();

	private final ToolRegistry registry = ToolRegistry.of(MethodTools.from(this.notes));

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	@Test
	void deniedCallNeverRunsIsAnsweredAsDeniedAndCounted() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "notes_purge", "{}"), new ToolCall("c2", "notes_list", "{}")),
				text("I may not purge; here are the notes."));
		Agent agent = builder(model).tools(this.registry, ToolScope.all())
			.permissionPolicy(ToolPermissionRules.builder().denyPermissions(ToolPermission.DESTRUCTIVE).build())
			.build();

		AgentResult result = agent.call("s1", "purge, then list");

		assertThat(this.notes.purged).hasValue(0);
		assertThat(result.output()).isEqualTo("I may not purge; here are the notes.");
		assertThat(toolResults(model.requests().get(1))).extracting(ToolResultMessage::text)
			.containsExactly("Error: tool 'notes_purge' was denied: agent 'notes-agent' may not use tools with "
					+ "permission 'destructive'", "a, b");
		assertThat(count("notes_purge", "denied")).isEqualTo(1);
		assertThat(count("notes_list", "success")).isEqualTo(1);
	}

	@Test
	void customPolicySeesTheAgentTheToolAndTheCall() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "notes_add",
				"{\"text\":\"secret plan\"}")), text("ok"));
		Agent agent = builder(model).tools(this.registry, ToolScope.all())
			.permissionPolicy((agentName, tool, call) -> call.arguments().contains("secret")
					? PermissionDecision.deny(agentName + " may not write " + tool.metadata().category() + " about that")
					: PermissionDecision.allow())
			.build();

		agent.call("s1", "note it");

		assertThat(this.notes.added).isEmpty();
		assertThat(toolResults(model.requests().get(1))).extracting(ToolResultMessage::text)
			.containsExactly("Error: tool 'notes_add' was denied: notes-agent may not write notes about that");
	}

	@Test
	void failingPolicyDeniesTheCall() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "notes_list", "{}")),
				text("ok"));
		Agent agent = builder(model).tools(this.registry, ToolScope.all()).permissionPolicy((agentName, tool, call) -> {
			throw new IllegalStateException("policy store down");
		}).build();

		agent.call("s1", "list");

		assertThat(toolResults(model.requests().get(1))).extracting(ToolResultMessage::text)
			.containsExactly("Error: tool 'notes_list' was denied: the permission policy failed");
		assertThat(count("notes_list", "denied")).isEqualTo(1);
	}

	@Test
	void toolsOutOfScopeAreNotSentAndRefusedWhenCalled() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "notes_purge", "{}"), new ToolCall("c2", "launch", "{}")),
				text("ok"));
		Agent agent = builder(model).tools(this.registry, ToolScope.of("group:notes", "weather")).build();

		agent.call("s1", "purge");

		assertThat(model.requests().get(0).tools()).extracting(ToolSpec::name)
			.containsExactly("notes_add", "notes_list", "weather");
		assertThat(agent.toolCallbacks()).extracting((tool) -> tool.spec().name())
			.containsExactly("notes_add", "notes_list", "weather");
		assertThat(this.notes.purged).hasValue(0);
		assertThat(toolResults(model.requests().get(1))).extracting(ToolResultMessage::text)
			.containsExactly("Error: tool 'notes_purge' is not available to this agent. Available tools: notes_add, "
					+ "notes_list, weather", "Error: unknown tool 'launch'. Available tools: notes_add, notes_list, weather");
	}

	@Test
	void scopeSelectsByGlob() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("ok"));
		Agent agent = builder(model).tools(this.registry, ToolScope.of("notes_*")).build();

		agent.call("s1", "hi");

		assertThat(model.requests().get(0).tools()).extracting(ToolSpec::name)
			.containsExactly("notes_add", "notes_list", "notes_purge");
	}

	@Test
	void scopeNamingAnUnknownToolFailsTheBuild() {
		AgentBuilder builder = builder(ScriptedChatModel.replaying()).tools(this.registry,
				ToolScope.of("notes_*", "notes_archive"));
		assertThatExceptionOfType(ToolDefinitionException.class).isThrownBy(builder::build)
			.withMessage("Unknown tool 'notes_archive' in tool scope [notes_*, notes_archive]. Known tools: "
					+ "[notes_add, notes_list, notes_purge, weather]");
	}

	@Test
	void toolNamesTheModelMadeUpAreRecordedAsUnknownNeverAsTagValues() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "x9f3_made_up", "{}"), new ToolCall("c2", "weather", "{}")), text("ok"));
		Agent agent = builder(model).tools(this.registry, ToolScope.of("notes_*")).build();

		agent.call("s1", "hi");

		assertThat(this.meters.get("agent.tool.calls").timers()).extracting((timer) -> timer.getId().getTag("tool"))
			.containsOnly("unknown");
		assertThat(this.meters.getMeters()).noneMatch((meter) -> meter.getId().getTags().stream()
			.anyMatch((tag) -> tag.getValue().equals("x9f3_made_up") || tag.getValue().equals("weather")));
	}

	private AgentBuilder builder(ScriptedChatModel model) {
		return Agent.builder().name("notes-agent").model(model).metrics(new MicrometerAgentMetrics(this.meters));
	}

	private double count(String tool, String outcome) {
		return this.meters.get("agent.tool.calls").tags("tool", tool, "outcome", outcome).timer().count();
	}

	static List<ToolResultMessage> toolResults(ChatRequest request) {
		return request.messages()
			.stream()
			.filter(ToolResultMessage.class::isInstance)
			.map(ToolResultMessage.class::cast)
			.toList();
	}

	static class NoteTools {

		final List<String> added = new CopyOnWriteArrayList<>();

		final AtomicInteger purged = new AtomicInteger();

		@Tool(name = "notes_add", category = "notes", secrets = {})
		void add(String text) {
			this.added.add(text);
		}

		@Tool(name = "notes_list", category = "notes", permission = "read-only", secrets = {})
		String list() {
			return "a, b";
		}

		@Tool(name = "notes_purge", permission = "destructive", secrets = {})
		void purge() {
			this.purged.incrementAndGet();
		}

		@Tool(name = "weather", permission = "read-only", secrets = {})
		String weather() {
			return "sunny";
		}

	}

}
