package dev.agcore.a2a.server;

import java.util.Objects;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.MemoryException;
import io.a2a.spec.Task;
import io.a2a.util.Utils;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The A2A tasks of the agents, kept in a {@link KeyValueStore} (namespace
 * {@value #NAMESPACE}, one item per task id) so that {@code tasks/get} answers after a
 * restart and on every instance that shares the store. Each item holds the agent's name,
 * the owner's principal name and the task as the A2A protocol shows it.
 *
 * @since 0.1.0
 */
public final class A2aTaskStore {

	/** The store's namespace of the tasks. */
	public static final String NAMESPACE = "a2a-task";

	private final KeyValueStore store;

	private A2aTaskStore(KeyValueStore store) {
		this.store = Objects.requireNonNull(store, "'store' must not be null");
	}

	/**
	 * Keep the tasks in a store.
	 * @param store the store
	 * @return the task store
	 */
	public static A2aTaskStore of(KeyValueStore store) {
		return new A2aTaskStore(store);
	}

	/**
	 * Find a task.
	 * @param taskId the task id
	 * @return the task with its agent and owner, empty when none
	 */
	Mono<A2aTaskRecord> find(String taskId) {
		return Mono.defer(() -> this.store.get(NAMESPACE, taskId)).map(A2aTaskStore::read);
	}

	/**
	 * Write a task, replacing what was stored under its id.
	 * @param task the task with its agent and owner
	 * @return completes when written
	 */
	Mono<Void> save(A2aTaskRecord task) {
		return Mono.defer(() -> this.store.put(NAMESPACE, task.task().getId(), write(task)));
	}

	private static JsonNode write(A2aTaskRecord record) {
		ObjectNode node = AgentJson.mapper().createObjectNode();
		node.put("agent", record.agent());
		if (record.owner() != null) {
			node.put("owner", record.owner());
		}
		// the protocol's own JSON of the task, written by the SDK's mapper, kept as a tree
		node.set("task", AgentJson.mapper().readTree(Utils.toJsonString(record.task())));
		return node;
	}

	private static A2aTaskRecord read(JsonNode node) {
		JsonNode owner = node.get("owner");
		try {
			Task task = Utils.OBJECT_MAPPER.readValue(AgentJson.mapper().writeValueAsString(node.get("task")),
					Task.class);
			return new A2aTaskRecord(node.path("agent").asString(""),
					(owner != null && owner.isString()) ? owner.asString() : null, task);
		}
		catch (JsonProcessingException ex) {
			throw new MemoryException("Stored A2A task is not readable: " + ex.getOriginalMessage(), ex);
		}
	}

	/**
	 * A stored task.
	 *
	 * @param agent the agent's name
	 * @param owner the principal name of the caller that created it, {@code null} for none
	 * @param task the task
	 */
	record A2aTaskRecord(String agent, @Nullable String owner, Task task) {

		A2aTaskRecord with(Task task) {
			return new A2aTaskRecord(this.agent, this.owner, task);
		}

	}

}
