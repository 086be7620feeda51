package dev.agcore.workflow;

import java.util.Optional;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;

/**
 * What a running workflow can do: call checkpointed tasks, wait for a human, emit events.
 * One context belongs to one execution of a workflow and to the thread running it.
 * <p>
 * Task call ids are deterministic: {@code <name>#<n>}, where {@code n} counts the earlier
 * calls of a task of that name in the same execution. A task whose call id has a
 * checkpointed result returns it without running; otherwise its body runs and its result,
 * serialised to JSON, is checkpointed before the call returns. A task that throws is not
 * checkpointed and runs again when the workflow is resumed.
 *
 * @since 0.1.0
 */
public interface WorkflowContext {

	/**
	 * The run this execution belongs to, the key of its checkpoint.
	 * @return the run id
	 */
	String runId();

	/**
	 * Call a task, or return its checkpointed result.
	 * @param <T> the result type
	 * @param name the task's name
	 * @param type the result type, to read a checkpointed result back
	 * @param body the task
	 * @return the result
	 * @throws WorkflowTaskException if the body threw a checked exception (its cause);
	 * unchecked ones pass as they are
	 */
	<T> @Nullable T task(String name, Class<T> type, Callable<@Nullable T> body);

	/**
	 * Call a task with a generic result, or return its checkpointed result.
	 * @param <T> the result type
	 * @param name the task's name
	 * @param type the result type, such as {@code new TypeReference<List<String>>() {}}
	 * @param body the task
	 * @return the result
	 */
	<T> @Nullable T task(String name, TypeReference<T> type, Callable<@Nullable T> body);

	/**
	 * Call a task with a result of a Jackson type, or return its checkpointed result.
	 * @param <T> the result type
	 * @param name the task's name
	 * @param type the result type
	 * @param body the task
	 * @return the result
	 */
	<T> @Nullable T task(String name, JavaType type, Callable<@Nullable T> body);

	/**
	 * Wait for a human. The first time, the workflow stops here as interrupted with the
	 * payload (what the human is asked). When the run is resumed, the workflow runs again
	 * from the start, and the k-th {@code interrupt} call of the execution returns the k-th
	 * resume value. The exception that stops the workflow must not be caught.
	 * @param payload what the human is asked; any value that serialises to JSON
	 * @return the human's answer, once resumed
	 */
	JsonNode interrupt(@Nullable Object payload);

	/**
	 * Emit a custom event on the workflow's event stream (not checkpointed: a replayed
	 * execution emits it again).
	 * @param type the event type
	 * @param data its data; any value that serialises to JSON
	 */
	void emit(String type, @Nullable Object data);

	/**
	 * The context of the workflow running on the current thread, for annotated tasks.
	 * @return the context, or empty outside a workflow
	 */
	static Optional<WorkflowContext> current() {
		return Optional.ofNullable(WorkflowExecution.CURRENT.get());
	}

}
