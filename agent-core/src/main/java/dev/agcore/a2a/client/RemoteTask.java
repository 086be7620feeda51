package dev.agcore.a2a.client;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.NestedEvents;
import io.a2a.spec.Artifact;
import io.a2a.spec.DataPart;
import io.a2a.spec.FilePart;
import io.a2a.spec.Message;
import io.a2a.spec.Part;
import io.a2a.spec.Task;
import io.a2a.spec.TaskArtifactUpdateEvent;
import io.a2a.spec.TaskState;
import io.a2a.spec.TaskStatus;
import io.a2a.spec.TaskStatusUpdateEvent;
import io.a2a.spec.TextPart;
import io.a2a.util.Utils;
import org.jspecify.annotations.Nullable;

/**
 * What one call of a remote agent got so far: the task's id, context and state, the text
 * of its artifacts and of its last status message, or the message the remote answered
 * with instead of a task. Each update is passed on to the calling turn's stream: the text
 * of artifacts and of the final answer as nested {@code text} events (so that, put
 * together, they are the tool's result), status messages along the way as nested
 * {@code tool_progress} events. Updates arrive in order, one at a time (a stream's
 * events are not delivered concurrently).
 */
final class RemoteTask {

	/** The longest status text passed on or put in an error; the remote's text is untrusted. */
	static final int MAX_STATUS_LENGTH = 500;

	private static final String SEPARATOR = "\n\n";

	private final String tool;

	private final String toolCallId;

	private final NestedEvents events;

	// written on the connection's thread, read on the tool's (also while it runs, to cancel)
	private volatile @Nullable String taskId;

	private volatile @Nullable String contextId;

	private volatile @Nullable TaskState state;

	private final Map<String, StringBuilder> artifacts = new LinkedHashMap<>();

	private @Nullable String statusText;

	private @Nullable String message;

	private boolean textPassedOn;

	private int updates;

	RemoteTask(String tool, String toolCallId, NestedEvents events) {
		this.tool = tool;
		this.toolCallId = toolCallId;
		this.events = events;
	}

	/** Take in a result or streamed event: a task, a message, a status or an artifact update. */
	void accept(Object event) {
		if (event instanceof Task task) {
			this.taskId = task.getId();
			this.contextId = task.getContextId();
			if (task.getArtifacts() != null) {
				task.getArtifacts().forEach((artifact) -> artifact(artifact, false));
			}
			status(task.getStatus(), isFinal(task.getStatus()));
		}
		else if (event instanceof Message reply) {
			this.contextId = (reply.getContextId() != null) ? reply.getContextId() : this.contextId;
			this.message = text(reply.getParts());
			this.state = TaskState.COMPLETED;
			passOn(this.message);
		}
		else if (event instanceof TaskStatusUpdateEvent update) {
			this.taskId = update.getTaskId();
			this.contextId = update.getContextId();
			status(update.getStatus(), update.isFinal() || isFinal(update.getStatus()));
		}
		else if (event instanceof TaskArtifactUpdateEvent update) {
			this.taskId = update.getTaskId();
			this.contextId = update.getContextId();
			artifact(update.getArtifact(), Boolean.TRUE.equals(update.isAppend()));
		}
	}

	private void status(@Nullable TaskStatus status, boolean last) {
		if (status == null) {
			return;
		}
		this.state = status.state();
		String text = (status.message() != null) ? text(status.message().getParts()) : null;
		if (text == null || text.isEmpty()) {
			return;
		}
		this.statusText = text;
		if (last && status.state() == TaskState.COMPLETED) {
			passOn(text);
		}
		else if (!last && this.events.streaming()) {
			this.updates++;
			this.events.event(this.tool, new AgentEvent.ToolProgress(this.toolCallId, this.tool, this.updates, null,
					status.state().asString() + ": " + bounded(text)));
		}
	}

	private void artifact(@Nullable Artifact artifact, boolean append) {
		if (artifact == null) {
			return;
		}
		String text = text(artifact.parts());
		if (text == null || text.isEmpty()) {
			return;
		}
		String id = (artifact.artifactId() != null) ? artifact.artifactId() : "";
		StringBuilder existing = this.artifacts.get(id);
		if (existing != null && append) {
			existing.append(text);
			if (this.events.streaming()) {
				this.events.event(this.tool, new AgentEvent.TextDelta(text));
			}
			return;
		}
		this.artifacts.put(id, new StringBuilder(text));
		passOn(text);
	}

	/** Pass on a new piece of the answer, apart from the one before. */
	private void passOn(@Nullable String text) {
		if (text == null || text.isEmpty() || !this.events.streaming()) {
			return;
		}
		this.events.event(this.tool, new AgentEvent.TextDelta(this.textPassedOn ? SEPARATOR + text : text));
		this.textPassedOn = true;
	}

	/** The answer: the artifacts' text, then the final status message, or the message. */
	String answer() {
		if (this.message != null) {
			return this.message;
		}
		StringBuilder answer = new StringBuilder();
		for (StringBuilder artifact : this.artifacts.values()) {
			answer.append(answer.isEmpty() ? "" : SEPARATOR).append(artifact);
		}
		if (this.state == TaskState.COMPLETED && this.statusText != null) {
			answer.append(answer.isEmpty() ? "" : SEPARATOR).append(this.statusText);
		}
		return answer.toString();
	}

	@Nullable String taskId() {
		return this.taskId;
	}

	@Nullable String contextId() {
		return this.contextId;
	}

	@Nullable TaskState state() {
		return this.state;
	}

	/** Whether the task ended or paused, so its stream has nothing more to say. */
	boolean settled() {
		return this.state != null && (this.state.isFinal() || this.state == TaskState.INPUT_REQUIRED
				|| this.state == TaskState.AUTH_REQUIRED);
	}

	/** The last status message, bounded, or empty. */
	String statusText() {
		return (this.statusText != null) ? bounded(this.statusText) : "";
	}

	private static boolean isFinal(@Nullable TaskStatus status) {
		return status != null && status.state() != null && (status.state().isFinal()
				|| status.state() == TaskState.INPUT_REQUIRED || status.state() == TaskState.AUTH_REQUIRED);
	}

	/** The text of the parts: text as it is, data as JSON, files by name; null for none. */
	private static @Nullable String text(@Nullable List<Part<?>> parts) {
		if (parts == null || parts.isEmpty()) {
			return null;
		}
		StringBuilder text = new StringBuilder();
		for (Part<?> part : parts) {
			if (part instanceof TextPart textPart && textPart.getText() != null) {
				text.append(textPart.getText());
			}
			else if (part instanceof DataPart data) {
				text.append(Utils.toJsonString(data.getData()));
			}
			else if (part instanceof FilePart file && file.getFile() != null) {
				text.append("[file ").append(String.valueOf(file.getFile().name())).append(']');
			}
		}
		return text.toString();
	}

	static String bounded(String text) {
		if (text.length() <= MAX_STATUS_LENGTH) {
			return text;
		}
		int end = Character.isHighSurrogate(text.charAt(MAX_STATUS_LENGTH - 1)) ? MAX_STATUS_LENGTH - 1
				: MAX_STATUS_LENGTH;
		return text.substring(0, end) + "...";
	}

}
