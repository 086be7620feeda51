package dev.agcore.autoconfigure.run;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.run.RunRequest;
import dev.agcore.run.schedule.RunSchedule;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.util.StringUtils;

/**
 * Reads {@code agent.schedules} into checked {@link RunSchedule}s; every mistake fails
 * startup naming the property.
 */
final class RunSchedules {

	static final String PREFIX = "agent.schedules";

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private RunSchedules() {
	}

	/** The configured schedules, enabled or not. */
	static Map<String, RunScheduleProperties> bind(Environment environment) {
		return Binder.get(environment)
			.bind(PREFIX, Bindable.mapOf(String.class, RunScheduleProperties.class))
			.orElse(Map.of());
	}

	/**
	 * The enabled schedules, checked.
	 * @param agents the agents, to check names against; null when there is no registry
	 */
	static List<RunSchedule> schedules(Map<String, RunScheduleProperties> configured, @Nullable AgentRegistry agents) {
		List<RunSchedule> schedules = new ArrayList<>();
		configured.forEach((name, properties) -> {
			if (properties.isEnabled()) {
				schedules.add(schedule(name, properties, agents));
			}
		});
		return schedules;
	}

	private static RunSchedule schedule(String name, RunScheduleProperties properties, @Nullable AgentRegistry agents) {
		String prefix = PREFIX + "." + name;
		boolean agent = StringUtils.hasText(properties.getAgent());
		boolean workflow = StringUtils.hasText(properties.getWorkflow());
		if (agent == workflow) {
			throw new AgentConfigurationException(
					prefix + ": set exactly one of " + prefix + ".agent and " + prefix + ".workflow"
							+ (agent ? " (both are set)" : " (neither is set)"),
					"Set " + prefix + ".agent to the name of an agent, or " + prefix + ".workflow to a workflow's.");
		}
		String cron = cron(prefix, properties.getCron());
		ZoneId zone = (properties.getZone() != null) ? properties.getZone() : ZoneId.systemDefault();
		String sessionId = StringUtils.hasText(properties.getSessionId()) ? properties.getSessionId().strip()
				: "schedule-" + name;
		String target;
		JsonNode input;
		if (agent) {
			target = properties.getAgent().strip();
			if (agents != null && agents.find(target).isEmpty()) {
				throw new AgentConfigurationException(prefix + ".agent: unknown agent '" + target + "'",
						"Set " + prefix + ".agent to one of "
								+ agents.all().stream().map(Agent::name).sorted().toList() + ".");
			}
			if (!StringUtils.hasText(properties.getMessage())) {
				throw new AgentConfigurationException(prefix + ".message must be set for a schedule of an agent",
						"Set " + prefix + ".message to what the agent is asked in each run.");
			}
			if (!properties.getInput().isEmpty()) {
				throw new AgentConfigurationException(prefix + ".input is for workflows; an agent takes a message",
						"Remove " + prefix + ".input and set " + prefix + ".message.");
			}
			input = MAPPER.createObjectNode().put("message", properties.getMessage());
		}
		else {
			target = properties.getWorkflow().strip();
			if (StringUtils.hasText(properties.getMessage())) {
				throw new AgentConfigurationException(prefix + ".message is for agents; a workflow takes an input",
						"Remove " + prefix + ".message and set " + prefix + ".input.");
			}
			input = MAPPER.valueToTree(properties.getInput());
		}
		try {
			RunRequest.of(agent ? "agent" : "workflow", target, sessionId, input)
				.withIdempotencyKey("schedule:" + name + ":" + Long.MAX_VALUE);
		}
		catch (IllegalArgumentException ex) {
			throw new AgentConfigurationException(prefix + ": " + ex.getMessage(),
					"Shorten the schedule's name, " + prefix + ".session-id or the target's name.", ex);
		}
		return new RunSchedule(name, agent ? "agent" : "workflow", target, cron, zone, sessionId, input);
	}

	private static String cron(String prefix, @Nullable String cron) {
		String action = "Set " + prefix + ".cron to a cron expression with seconds, such as \"0 */5 * * * *\" "
				+ "(every five minutes) or \"0 0 2 * * *\" (at 2 a.m.).";
		if (!StringUtils.hasText(cron)) {
			throw new AgentConfigurationException(prefix + ".cron must be set", action);
		}
		try {
			CronExpression.parse(cron.strip());
			return cron.strip();
		}
		catch (IllegalArgumentException ex) {
			throw new AgentConfigurationException(
					prefix + ".cron: invalid cron expression '" + cron + "': " + ex.getMessage(), action, ex);
		}
	}

}
