package dev.agcore.middleware.builtin;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.agcore.ToolParam;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.model.ChatRequest;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.typed.TypedTool;
import dev.agcore.tool.typed.TypedTools;
import reactor.core.publisher.Mono;

/**
 * Gives the agent a to-do list for multi-step work: a {@code write_todos} tool that
 * replaces the list, and the current list shown to the model before every call. The list
 * lives in the session's memory, so it carries over between turns (and restarts, with a
 * persistent store).
 */
public final class TodoListMiddleware implements AgentMiddleware {

	/**
	 * The session-memory key of the list; private (leading {@code _}), as this middleware
	 * shows the list itself rather than in the {@code <session-context>} block.
	 */
	public static final String MEMORY_KEY = "_todos";

	static final String TOOL_NAME = "write_todos";

	private final ToolCallback tool = TypedTools.from(new WriteTodos());

	@Override
	public List<ToolCallback> tools() {
		return List.of(this.tool);
	}

	/**
	 * Show the current list to the model. Reads the session memory without blocking, so
	 * no thread waits for a networked store.
	 */
	@Override
	public Mono<ChatRequest> beforeModelAsync(AgentContext context, ChatRequest request) {
		return context.memory()
			.getAsync(MEMORY_KEY, Todos.class)
			.map(Todos::todos)
			.defaultIfEmpty(List.of())
			.map((todos) -> withList(request, todos));
	}

	private static ChatRequest withList(ChatRequest request, List<Todo> todos) {
		String listing = render(todos);
		List<Message> messages = new ArrayList<>(request.messages().size() + 1);
		boolean merged = false;
		for (Message message : request.messages()) {
			if (!merged && message instanceof SystemMessage system) {
				messages.add(new SystemMessage(system.text() + "\n\n" + listing));
				merged = true;
			}
			else {
				messages.add(message);
			}
		}
		if (!merged) {
			messages.add(0, new SystemMessage(listing));
		}
		return new ChatRequest(messages, request.tools(), request.options());
	}

	/**
	 * Return the current list of a session.
	 * @param context the turn
	 * @return the items, in order
	 */
	public static List<Todo> todos(AgentContext context) {
		return context.memory().get(MEMORY_KEY, Todos.class).map(Todos::todos).orElse(List.of());
	}

	static String render(List<Todo> todos) {
		if (todos.isEmpty()) {
			return "To-do list: empty. For a task with several steps, first write the steps with " + TOOL_NAME
					+ ", then keep their status up to date.";
		}
		StringBuilder text = new StringBuilder("To-do list (update it with " + TOOL_NAME + " as you work):");
		for (Todo todo : todos) {
			text.append("\n- [").append(todo.status().name().toLowerCase(java.util.Locale.ROOT)).append("] ")
				.append(todo.content());
		}
		return text.toString();
	}

	@Override
	public String name() {
		return "todo-list";
	}

	/**
	 * The status of an item.
	 */
	public enum Status {

		@JsonProperty("pending")
		PENDING,

		@JsonProperty("in_progress")
		IN_PROGRESS,

		@JsonProperty("completed")
		COMPLETED

	}

	/**
	 * One item of the list.
	 *
	 * @param content what to do
	 * @param status how far it is
	 */
	public record Todo(@JsonPropertyDescription("What to do, as a short imperative sentence") String content,
			@JsonPropertyDescription("pending, in progress or completed") Status status) {

		public Todo {
			Objects.requireNonNull(content, "'content' must not be null");
			Objects.requireNonNull(status, "'status' must not be null");
		}

	}

	/**
	 * The whole list, as the tool receives and stores it.
	 *
	 * @param todos the items, in order
	 */
	public record Todos(@ToolParam(description = "The complete list; it replaces the previous one") List<Todo> todos) {

		public Todos {
			todos = List.copyOf(todos);
		}

	}

	private static final class WriteTodos implements TypedTool<Todos> {

		@Override
		public String name() {
			return TOOL_NAME;
		}

		@Override
		public String description() {
			return "Write the to-do list of the current task: the complete list of steps with their status. "
					+ "Use it to plan multi-step work and to mark progress.";
		}

		@Override
		public Object call(Todos input, ToolContext context) {
			context.memory().put(MEMORY_KEY, input);
			long done = input.todos().stream().filter((todo) -> todo.status() == Status.COMPLETED).count();
			return "To-do list saved: " + input.todos().size() + " items, " + done + " completed";
		}

		@Override
		public Set<String> secretParameters() {
			return Set.of();
		}

		@Override
		public Class<Todos> inputType() {
			return Todos.class;
		}

	}

}
