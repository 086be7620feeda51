package dev.agcore.tool.memory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;

import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.LongTermStore;
import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolException;
import dev.agcore.tool.ToolPermission;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** The remember and recall tools: arguments, scopes and bounds. */
class MemoryToolsTests {

	/** Each write a second after the one before: "newest first" does not depend on the clock's resolution. */
	private final InMemoryKeyValueStore store = new InMemoryKeyValueStore(1_000, Duration.ZERO, new TickingClock());

	@Test
	void rememberedValuesAreRecalledByKeyWithTheirMetadata() throws Exception {
		ToolContext alice = context("s1", "alice");
		call(MemoryTools.remember(MemoryScope.USER), "{\"key\":\"language\",\"value\":\"Dutch\",\"metadata\":{\"source\":\"chat\"}}",
				alice);

		String recalled = call(MemoryTools.recall(MemoryScope.USER), "{\"key\":\"language\"}", alice);

		assertThat(recalled).startsWith("[{\"key\":\"language\",\"value\":\"Dutch\",\"metadata\":{\"source\":\"chat\"},");
		assertThat(LongTermStore.of(this.store).get("user:alice", "language", String.class)).contains("Dutch");
		assertThat(call(MemoryTools.recall(MemoryScope.USER), "{\"key\":\"colour\"}", alice))
			.isEqualTo("Nothing remembered under 'colour'.");
	}

	@Test
	void recallListsByPrefixAndQueryNewestFirst() throws Exception {
		ToolContext context = context("s1", "alice");
		ToolCallback remember = MemoryTools.remember(MemoryScope.USER);
		call(remember, "{\"key\":\"pref.language\",\"value\":\"Dutch\"}", context);
		call(remember, "{\"key\":\"pref.editor\",\"value\":\"vim\"}", context);
		call(remember, "{\"key\":\"project\",\"value\":{\"name\":\"Vimes\"}}", context);
		ToolCallback recall = MemoryTools.recall(MemoryScope.USER);

		assertThat(call(recall, "{\"prefix\":\"pref.\"}", context)).contains("pref.language", "pref.editor")
			.doesNotContain("project");
		assertThat(call(recall, "{\"query\":\"VIM\"}", context)).contains("pref.editor", "Vimes")
			.doesNotContain("Dutch");
		assertThat(call(recall, "{\"query\":\"vim\",\"limit\":1}", context)).contains("Vimes").doesNotContain("editor");
		assertThat(call(recall, "{\"query\":\"emacs\"}", context)).isEqualTo("Nothing remembered matches.");
	}

	@Test
	void scopesKeepMemoriesApart() throws Exception {
		ToolCallback rememberUser = MemoryTools.remember(MemoryScope.USER);
		ToolCallback recallUser = MemoryTools.recall(MemoryScope.USER);
		call(rememberUser, "{\"key\":\"k\",\"value\":\"alice's\"}", context("s1", "alice"));

		assertThat(call(recallUser, "{\"key\":\"k\"}", context("s2", "alice"))).contains("alice's");
		assertThat(call(recallUser, "{\"key\":\"k\"}", context("s1", "bob"))).startsWith("Nothing");

		call(MemoryTools.remember(MemoryScope.SESSION), "{\"key\":\"k\",\"value\":\"s1's\"}", context("s1", null));
		assertThat(call(MemoryTools.recall(MemoryScope.SESSION), "{\"key\":\"k\"}", context("s1", "bob"))).contains("s1's");
		assertThat(call(MemoryTools.recall(MemoryScope.SESSION), "{\"key\":\"k\"}", context("s2", null))).startsWith("Nothing");

		call(MemoryTools.remember(MemoryScope.AGENT), "{\"key\":\"k\",\"value\":\"shared\"}", context("s1", null));
		assertThat(call(MemoryTools.recall(MemoryScope.AGENT), "{\"key\":\"k\"}", context("s9", "carol"))).contains("shared");
	}

	@Test
	void userScopeWithoutAUserIdFailsClearly() {
		assertThatExceptionOfType(ToolException.class)
			.isThrownBy(() -> call(MemoryTools.remember(MemoryScope.USER), "{\"key\":\"k\",\"value\":1}", context("s1", null)))
			.withMessageContaining("names no user");
	}

	@Test
	void argumentsAreCheckedAndBounded() {
		ToolCallback remember = MemoryTools.remember(MemoryScope.AGENT);
		ToolContext context = context("s1", null);
		assertThatExceptionOfType(ToolArgumentsException.class).isThrownBy(() -> call(remember, "{\"value\":1}", context))
			.withMessageContaining("'key'");
		assertThatExceptionOfType(ToolArgumentsException.class)
			.isThrownBy(() -> call(remember, "{\"key\":\"" + "k".repeat(201) + "\",\"value\":1}", context))
			.withMessageContaining("at most 200");
		assertThatExceptionOfType(ToolArgumentsException.class)
			.isThrownBy(() -> call(remember, "{\"key\":\"k\",\"value\":\"" + "v".repeat(10_001) + "\"}", context))
			.withMessageContaining("'value' must be at most");
		assertThatExceptionOfType(ToolArgumentsException.class)
			.isThrownBy(() -> call(remember, "{\"key\":\"k\",\"value\":1,\"metadata\":[1]}", context))
			.withMessageContaining("'metadata' must be a JSON object");
		assertThatExceptionOfType(ToolArgumentsException.class)
			.isThrownBy(() -> call(MemoryTools.recall(MemoryScope.AGENT), "{\"limit\":500}", context))
			.withMessageContaining("'limit'");
		assertThatExceptionOfType(ToolArgumentsException.class).isThrownBy(() -> call(remember, "[1]", context));
	}

	@Test
	void recallOutputIsBounded() throws Exception {
		ToolContext context = context("s1", null);
		for (int i = 0; i < 30; i++) {
			call(MemoryTools.remember(MemoryScope.AGENT), "{\"key\":\"k" + i + "\",\"value\":\"" + "v".repeat(9_000) + "\"}",
					context);
		}
		String recalled = call(MemoryTools.recall(MemoryScope.AGENT), "{\"limit\":50}", context);

		assertThat(recalled.length()).isLessThan(MemoryTools.MAX_RECALL_CHARS + 100);
		assertThat(recalled).endsWith("(29 more left out: ask for a narrower prefix or query)");
	}

	@Test
	void specsDescribeTheArgumentsAndPermissions() {
		ToolCallback remember = MemoryTools.remember(MemoryScope.USER);
		ToolCallback recall = MemoryTools.recall(MemoryScope.USER);
		assertThat(remember.spec().name()).isEqualTo("remember");
		assertThat(remember.spec().inputSchema().get("required").toString()).isEqualTo("[\"key\",\"value\"]");
		assertThat(remember.metadata().permission()).isEqualTo(ToolPermission.WRITE);
		assertThat(recall.spec().name()).isEqualTo("recall");
		assertThat(recall.spec().inputSchema().get("properties").propertyNames()).containsExactly("key", "prefix",
				"query", "limit");
		assertThat(recall.metadata().permission()).isEqualTo(ToolPermission.READ_ONLY);
		assertThat(MemoryScope.parse(" Session ")).isEqualTo(MemoryScope.SESSION);
	}

	private ToolContext context(String sessionId, String userId) {
		return new ToolContext("c", sessionId, "helper", Map.of(), this.store).withUserId(userId);
	}

	private static String call(ToolCallback tool, String arguments, ToolContext context) throws Exception {
		return tool.call(arguments, context);
	}

	private static final class TickingClock extends Clock {

		private Instant now = Instant.parse("2026-01-01T00:00:00Z");

		@Override
		public synchronized Instant instant() {
			this.now = this.now.plusSeconds(1);
			return this.now;
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}

	}

}
