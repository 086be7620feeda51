package dev.agcore.autoconfigure.run;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.agcore.AgentPrincipal;
import dev.agcore.autoconfigure.view.AgentEventViews;
import dev.agcore.json.AgentJson;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ResponseFormat;
import dev.agcore.model.ToolChoice;
import dev.agcore.run.Run;
import dev.agcore.run.RunEmission;
import dev.agcore.run.RunEvent;
import dev.agcore.run.RunExecutor;
import dev.agcore.run.RunOutcome;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.CallerResolver;
import dev.agcore.runtime.ResumeRequest;
import dev.agcore.runtime.ToolDecision;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.util.context.Context;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Executes agent runs (kind {@value #KIND}): a turn of the run's agent in the run's
 * session, from the input {@code {"message": "...", "options": {...}, "instructions":
 * "..."}}, or the resumption of a turn paused for approval when the run was resumed with
 * {@code {"decisions": {...}}}. Each agent event becomes a run event of the same type and
 * data as the agent endpoint streams, except that the pause is stored as
 * {@value RunEvent#INTERRUPTED}, the type that ends a run's stream.
 *
 * @since 0.1.0
 */
public final class AgentRunExecutor implements RunExecutor {

	/** The kind of agent runs. */
	public static final String KIND = "agent";

	private final AgentRegistry agents;

	private final boolean secured;

	public AgentRunExecutor(AgentRegistry agents) {
		this(agents, false);
	}

	/**
	 * Create the executor.
	 * @param agents the agents
	 * @param secured whether the application authenticates its callers
	 * ({@link CallerResolver#secured()}): then a run's user id is the principal that
	 * submitted it, and its turn runs for that principal (without its authorities, which
	 * the run does not keep); else the turn runs for an anonymous caller
	 */
	public AgentRunExecutor(AgentRegistry agents, boolean secured) {
		this.agents = agents;
		this.secured = secured;
	}

	@Override
	public String kind() {
		return KIND;
	}

	@Override
	public List<String> targets() {
		return this.agents.all().stream().map(Agent::name).toList();
	}

	@Override
	public Flux<RunEmission> execute(Run run) {
		return Flux.defer(() -> {
			Agent agent = this.agents.find(run.target())
				.orElseThrow(() -> new IllegalStateException("No agent named '" + run.target() + "'"));
			JsonNode input = run.request().input();
			ChatOptions options = options(input.get("options"));
			boolean structured = present(optionsField(input, "responseSchema")) != null;
			Flux<AgentEvent> events;
			if (run.resume() != null) {
				ResumeRequest resume = ResumeRequest.of(run.sessionId(), decisions(run.resume().get("decisions")))
					.withOptions(options);
				events = agent.resumeStream((run.request().userId() != null)
						? resume.withUserId(run.request().userId()) : resume);
			}
			else {
				JsonNode message = input.get("message");
				if (message == null || !message.isString() || message.asString().isBlank()) {
					throw new IllegalArgumentException("An agent run's input needs a 'message'");
				}
				AgentRequest request = AgentRequest.of(run.sessionId(), message.asString())
					.withOptions(options)
					.withUserId(run.request().userId());
				JsonNode instructions = present(input.get("instructions"));
				if (instructions != null && instructions.isString()) {
					request = request.withInstructions(instructions.asString());
				}
				events = agent.stream(request);
			}
			return events.map((event) -> emission(event, structured)).contextWrite(caller(run));
		});
	}

	/**
	 * The caller the run's turn runs for, decided here rather than by a resolver on the
	 * worker's thread: the submitting principal, whose sessions the run reaches, or an
	 * anonymous caller.
	 */
	private Context caller(Run run) {
		String userId = run.request().userId();
		return (this.secured && userId != null) ? AgentPrincipal.context(AgentPrincipal.of(userId))
				: CallerResolver.anonymous();
	}

	static RunEmission emission(AgentEvent event, boolean structured) {
		if (event instanceof AgentEvent.Failed failed) {
			// the worker classifies the failure and stores it as the run's "failed" event
			throw (failed.cause() instanceof RuntimeException ex) ? ex
					: new IllegalStateException("Agent turn failed: " + failed.errorType(), failed.cause());
		}
		JsonNode data = AgentJson.mapper().valueToTree(AgentEventViews.eventData(event, structured));
		if (event instanceof AgentEvent.Completed) {
			return RunEmission.end(RunEvent.COMPLETED, data, RunOutcome.completed(data));
		}
		if (event instanceof AgentEvent.Interrupted) {
			return RunEmission.end(RunEvent.INTERRUPTED, data, RunOutcome.interrupted(data));
		}
		return RunEmission.event(event.type(), data);
	}

	private static @Nullable JsonNode optionsField(JsonNode input, String name) {
		JsonNode options = input.get("options");
		return (options != null) ? options.get(name) : null;
	}

	/**
	 * The model options of the input, as the HTTP endpoint validated them when the run was
	 * submitted: {@code temperature}, {@code maxTokens}, {@code toolChoice},
	 * {@code responseFormat}, {@code responseSchema}, {@code model}.
	 */
	static ChatOptions options(@Nullable JsonNode options) {
		ChatOptions.Builder builder = ChatOptions.builder();
		if (options == null || !options.isObject()) {
			return builder.build();
		}
		JsonNode temperature = present(options.get("temperature"));
		if (temperature != null) {
			builder.temperature(temperature.asDouble());
		}
		JsonNode maxTokens = present(options.get("maxTokens"));
		if (maxTokens != null) {
			builder.maxTokens(maxTokens.asInt());
		}
		JsonNode toolChoice = present(options.get("toolChoice"));
		if (toolChoice != null) {
			builder.toolChoice(ToolChoice.parse(toolChoice.asString()));
		}
		JsonNode model = present(options.get("model"));
		if (model != null) {
			builder.model(model.asString().strip());
		}
		JsonNode schema = present(options.get("responseSchema"));
		JsonNode format = present(options.get("responseFormat"));
		if (schema instanceof ObjectNode object) {
			JsonNode title = object.get("title");
			String name = (title != null && title.isString() && title.asString().matches("[A-Za-z0-9_-]{1,64}"))
					? title.asString() : "answer";
			builder.responseFormat(ResponseFormat.jsonSchema(name, object.deepCopy()));
		}
		else if (format != null && format.isString()) {
			builder.responseFormat(
					format.asString().equals("json_object") ? ResponseFormat.JSON_OBJECT : ResponseFormat.TEXT);
		}
		return builder.build();
	}

	/**
	 * The tool decisions of a resume input, in the shape of the session resume endpoint:
	 * {@code {"<call id>": {"type": "approve" | "edit" | "reject", ...}}}.
	 */
	static Map<String, ToolDecision> decisions(@Nullable JsonNode decisions) {
		Map<String, ToolDecision> read = new LinkedHashMap<>();
		if (decisions == null || !decisions.isObject()) {
			throw new IllegalArgumentException("A resumed agent run needs 'decisions'");
		}
		for (Map.Entry<String, JsonNode> entry : decisions.properties()) {
			JsonNode decision = entry.getValue();
			String type = decision.path("type").asString("").strip().toLowerCase(Locale.ROOT);
			read.put(entry.getKey(), switch (type) {
				case "approve" -> ToolDecision.approve();
				case "edit" -> ToolDecision.edit(AgentJson.mapper().writeValueAsString(decision.get("arguments")));
				case "reject" -> ToolDecision.reject(decision.path("reason").asString(""));
				default -> throw new IllegalArgumentException(
						"Decision for '" + entry.getKey() + "' must be approve, edit or reject");
			});
		}
		return read;
	}

	private static @Nullable JsonNode present(@Nullable JsonNode value) {
		return (value == null || value.isNull() || value.isMissingNode()) ? null : value;
	}

}
