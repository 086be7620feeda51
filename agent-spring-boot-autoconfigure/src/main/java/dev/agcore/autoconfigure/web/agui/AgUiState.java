package dev.agcore.autoconfigure.web.agui;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import dev.agcore.json.AgentJson;
import dev.agcore.plan.Plan;
import dev.agcore.plan.Step;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The state a run's {@code STATE_SNAPSHOT}s carry: the client's state, with the plan of a
 * {@link dev.agcore.plan.task.TaskAgent} under {@code plan} and the to-do list of the
 * {@code todo-list} middleware under {@code todos}, so that what the client keeps in its
 * state survives a snapshot. Also names plan steps for {@code STEP_*} events.
 */
final class AgUiState {

	/** The tool of the to-do list middleware, whose list is part of the state. */
	static final String TODO_TOOL = "write_todos";

	/** The longest step name: a step's description is model output. */
	static final int MAX_STEP_NAME_LENGTH = 120;

	private final Map<String, Object> values;

	AgUiState(Map<String, Object> client) {
		this.values = new LinkedHashMap<>(client);
	}

	/**
	 * Take the list a successful {@value #TODO_TOOL} call stored, as the model wrote it.
	 * @param arguments the call's arguments
	 * @return whether the state changed; not for arguments that hold no list
	 */
	boolean todos(String arguments) {
		try {
			JsonNode todos = AgentJson.mapper().readTree(arguments).get("todos");
			if (todos == null || !todos.isArray()) {
				return false;
			}
			this.values.put("todos", todos);
			return true;
		}
		catch (JacksonException ex) {
			return false;
		}
	}

	/**
	 * Take a plan as it is now.
	 * @param plan the plan
	 */
	void plan(Plan plan) {
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("id", plan.id());
		view.put("goal", plan.goal());
		view.put("steps", plan.steps().stream().map(AgUiState::step).toList());
		this.values.put("plan", view);
	}

	private static Map<String, Object> step(Step step) {
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("index", step.index());
		view.put("description", step.description());
		view.put("dependsOn", step.dependsOn());
		view.put("status", step.status().name().toLowerCase(Locale.ROOT));
		putIfSet(view, "result", step.result());
		putIfSet(view, "error", step.error());
		return view;
	}

	private static void putIfSet(Map<String, Object> view, String key, @Nullable String value) {
		if (value != null) {
			view.put(key, value);
		}
	}

	/** The whole state, for a {@code STATE_SNAPSHOT}. */
	Map<String, Object> snapshot() {
		return new LinkedHashMap<>(this.values);
	}

	/**
	 * The name of a step's {@code STEP_STARTED} and {@code STEP_FINISHED}: its number and
	 * description, at most {@value #MAX_STEP_NAME_LENGTH} characters.
	 * @param step the step
	 * @return the name
	 */
	static String stepName(Step step) {
		String name = (step.index() + 1) + ". " + step.description().strip();
		if (name.length() <= MAX_STEP_NAME_LENGTH) {
			return name;
		}
		int end = Character.isHighSurrogate(name.charAt(MAX_STEP_NAME_LENGTH - 2)) ? MAX_STEP_NAME_LENGTH - 2
				: MAX_STEP_NAME_LENGTH - 1;
		return name.substring(0, end) + "…";
	}

}
