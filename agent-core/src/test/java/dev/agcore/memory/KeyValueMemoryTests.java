package dev.agcore.memory;

import java.util.List;
import java.util.Map;

import dev.agcore.json.AgentJson;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link InMemoryKeyValueStore}, {@link SessionMemory} and
 * {@link LongTermStore}.
 */
class KeyValueMemoryTests {

	private final InMemoryKeyValueStore store = new InMemoryKeyValueStore();

	@Test
	void sessionMemoryKeepsValuesPerSession() {
		SessionMemory first = SessionMemory.of(this.store, "s1");
		first.put("city", "Paris");
		first.put("visits", 3);
		first.put("prefs", Map.of("unit", "celsius"));

		assertThat(first.get("city", String.class)).contains("Paris");
		assertThat(first.get("visits", Integer.class)).contains(3);
		assertThat(first.get("prefs", Prefs.class)).contains(new Prefs("celsius"));
		assertThat(first.keys()).containsExactly("city", "prefs", "visits");
		assertThat(SessionMemory.of(this.store, "s2").keys()).isEmpty();
		assertThat(first.delete("city")).isTrue();
		assertThat(first.delete("city")).isFalse();
		assertThat(first.get("city")).isEmpty();
		assertThat(first.namespace()).isEqualTo("session:s1");
	}

	@Test
	void longTermStoreIsSharedAndApartFromSessions() {
		LongTermStore.of(this.store).put("u-7", "language", "fr");

		assertThat(LongTermStore.of(this.store).get("u-7", "language", String.class)).contains("fr");
		assertThat(LongTermStore.of(this.store).keys("u-7")).containsExactly("language");
		assertThat(SessionMemory.of(this.store, "u-7").keys()).isEmpty();
		assertThat(this.store.keys("store:u-7").block()).containsExactly("language");
	}

	@Test
	void valuesAreCopiedInAndOut() {
		ObjectNode value = AgentJson.mapper().createObjectNode().put("n", 1);
		SessionMemory memory = SessionMemory.of(this.store, "s1");
		memory.put("v", value);
		value.put("n", 2);
		((ObjectNode) memory.get("v").orElseThrow()).put("n", 3);

		assertThat(memory.get("v").orElseThrow().get("n").asInt()).isEqualTo(1);
	}

	@Test
	void rejectsEmptyKeysAndNamespaces() {
		assertThatIllegalArgumentException().isThrownBy(() -> SessionMemory.of(this.store, "s1").put("", 1))
			.withMessage("'key' must not be empty");
		assertThatIllegalArgumentException().isThrownBy(() -> LongTermStore.of(this.store).namespace(""))
			.withMessage("'namespace' must not be empty");
	}

	@Test
	void concurrentWritesAreAllKept() {
		SessionMemory memory = SessionMemory.of(this.store, "s1");
		List.of(0, 1, 2, 3, 4, 5, 6, 7).parallelStream().forEach((i) -> memory.put("k" + i, i));
		assertThat(memory.keys()).hasSize(8);
	}

	record Prefs(String unit) {
	}

}
