package dev.agcore.tool.permission;

import java.util.List;

import dev.agcore.json.AgentJson;
import dev.agcore.message.ToolCall;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolMetadata;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.ToolSpec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ToolPermissionRules}.
 */
class ToolPermissionRulesTests {

	private final ToolCallback read = tool("notes_list", ToolPermission.READ_ONLY);

	private final ToolCallback write = tool("notes_add", ToolPermission.WRITE);

	private final ToolCallback delete = tool("notes_purge", ToolPermission.DESTRUCTIVE);

	private final ToolCallback refund = tool("refund", ToolPermission.custom("billing:refund"));

	@Test
	void withoutRulesEverythingIsAllowed() {
		ToolPermissionRules rules = ToolPermissionRules.builder().build();
		assertThat(List.of(this.read, this.write, this.delete, this.refund))
			.allSatisfy((tool) -> assertThat(decide(rules, tool).allowed()).isTrue());
	}

	@Test
	void deniesByPermission() {
		ToolPermissionRules rules = ToolPermissionRules.builder().denyPermissions(List.of("destructive")).build();
		assertThat(decide(rules, this.delete))
			.isEqualTo(PermissionDecision.deny("agent 'helper' may not use tools with permission 'destructive'"));
		assertThat(decide(rules, this.write).allowed()).isTrue();
	}

	@Test
	void allowRulesAllowOnlyWhatTheyName() {
		ToolPermissionRules rules = ToolPermissionRules.builder()
			.allowPermissions(ToolPermission.READ_ONLY)
			.allowTools("refund")
			.build();
		assertThat(decide(rules, this.read).allowed()).isTrue();
		assertThat(decide(rules, this.refund).allowed()).isTrue();
		assertThat(decide(rules, this.write))
			.isEqualTo(PermissionDecision.deny("agent 'helper' is not allowed tools with permission 'write'"));
	}

	@Test
	void denyWins() {
		ToolPermissionRules rules = ToolPermissionRules.builder()
			.allowPermissions(List.of("read-only", "destructive"))
			.allowTools("notes_*")
			.denyTools("notes_purge")
			.denyPermissions(ToolPermission.custom("billing:refund"))
			.allowTools("refund")
			.build();
		assertThat(decide(rules, this.delete))
			.isEqualTo(PermissionDecision.deny("agent 'helper' may not use this tool"));
		assertThat(decide(rules, this.refund).allowed()).isFalse();
		assertThat(decide(rules, this.write).allowed()).isTrue();
	}

	private static PermissionDecision decide(ToolPermissionRules rules, ToolCallback tool) {
		return rules.decide("helper", tool, new ToolCall("c1", tool.spec().name(), "{}"));
	}

	private static ToolCallback tool(String name, ToolPermission permission) {
		ToolSpec spec = new ToolSpec(name, name, AgentJson.mapper().createObjectNode().put("type", "object"));
		ToolMetadata metadata = ToolMetadata.DEFAULT.withPermission(permission);
		return new ToolCallback() {

			@Override
			public ToolSpec spec() {
				return spec;
			}

			@Override
			public ToolMetadata metadata() {
				return metadata;
			}

			@Override
			public String call(String arguments, ToolContext context) {
				return "";
			}

		};
	}

}
