package dev.agcore.runtime;

import java.security.Principal;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import dev.agcore.AgentPrincipal;
import dev.agcore.Tool;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.ToolCall;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.method.MethodTools;
import dev.agcore.tool.permission.ToolPermissionRules;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static dev.agcore.runtime.AgentToolPolicyTests.toolResults;
import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The caller's {@link AgentPrincipal}, from the turn's Reactor context, reaches tools (an
 * injected {@link Principal}, {@link ToolContext#principal()}) and permission rules that
 * restrict a tool to some roles.
 */
class AgentPrincipalToolTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	@Test
	void aToolSeesThePrincipalOfTheTurnsContextOnItsOwnThread() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "whoAmI", "{}"), new ToolCall("c2", "myRoles", "{}")), text("ok"));
		Agent agent = Agent.builder()
			.name("helper")
			.model(model)
			.conversationStore(new InMemoryConversationStore())
			.tools(MethodTools.from(new WhoTools()))
			.build();

		agent.invoke(AgentRequest.of("s1", "who am I?").withUserId("alice"))
			.contextWrite(AgentPrincipal.context(AgentPrincipal.of("alice", "ROLE_USER")))
			.block(TIMEOUT);

		assertThat(toolResults(model.requests().get(1))).extracting((result) -> result.text())
			.containsExactly("alice on tool thread: true", "[ROLE_USER] for alice");
	}

	@Test
	void withoutAPrincipalAnInjectedPrincipalIsNull() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "whoAmI", "{}")),
				text("ok"));
		Agent agent = Agent.builder()
			.name("helper")
			.model(model)
			.conversationStore(new InMemoryConversationStore())
			.tools(MethodTools.from(new WhoTools()))
			.build();

		agent.invoke(AgentRequest.of("s1", "who am I?")).block(TIMEOUT);

		assertThat(toolResults(model.requests().get(1)).get(0).text()).isEqualTo("nobody");
	}

	@Test
	void aToolRestrictedToARoleRunsForThatRoleOnly() {
		ToolPermissionRules rules = ToolPermissionRules.builder().requireRoles("myRoles", List.of("ADMIN")).build();

		assertThat(results(rules, AgentPrincipal.of("root", "ROLE_ADMIN"))).containsExactly("[ROLE_ADMIN] for root");
		assertThat(results(rules, AgentPrincipal.of("alice", "ROLE_USER"))).containsExactly(
				"Error: tool 'myRoles' was denied: tool 'myRoles' needs one of the roles [ADMIN], which the caller "
						+ "does not have");
		assertThat(results(rules, null)).containsExactly(
				"Error: tool 'myRoles' was denied: tool 'myRoles' needs one of the roles [ADMIN], which the caller "
						+ "does not have");
	}

	@Test
	void aRoleIsGrantedByItsRoleAuthorityOrByTheAuthorityItself() {
		AgentPrincipal principal = new AgentPrincipal("svc", Set.of("ROLE_ADMIN", "SCOPE_orders"));
		assertThat(principal.hasAnyRole(List.of("ADMIN"))).isTrue();
		assertThat(principal.hasAnyRole(List.of("ROLE_ADMIN"))).isTrue();
		assertThat(principal.hasAnyRole(List.of("SCOPE_orders"))).isTrue();
		assertThat(principal.hasAnyRole(List.of("orders", "USER"))).isFalse();
		assertThat(principal.hasAnyRole(List.of())).isFalse();
		assertThat(principal).hasToString("AgentPrincipal[svc]");
	}

	private static List<String> results(ToolPermissionRules rules, @Nullable AgentPrincipal principal) {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "myRoles", "{}")),
				text("ok"));
		Agent agent = Agent.builder()
			.name("helper")
			.model(model)
			.conversationStore(new InMemoryConversationStore())
			.tools(MethodTools.from(new WhoTools()))
			.permissionPolicy(rules)
			.build();
		var turn = agent.invoke(AgentRequest.of("s1", "roles?"));
		if (principal != null) {
			turn = turn.contextWrite(AgentPrincipal.context(principal));
		}
		turn.block(TIMEOUT);
		return toolResults(model.requests().get(1)).stream().map((result) -> result.text()).toList();
	}

	static class WhoTools {

		private final Thread caller = Thread.currentThread();

		@Tool(description = "Who is asking")
		String whoAmI(@Nullable Principal principal) {
			return (principal != null)
					? principal.getName() + " on tool thread: " + (Thread.currentThread() != this.caller) : "nobody";
		}

		@Tool(description = "The caller's roles")
		String myRoles(ToolContext context) {
			AgentPrincipal principal = context.principal();
			return (principal != null) ? principal.authorities() + " for " + principal.getName() : "none";
		}

	}

}
