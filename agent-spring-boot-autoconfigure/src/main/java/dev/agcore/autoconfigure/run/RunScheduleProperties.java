package dev.agcore.autoconfigure.run;

import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One schedule under {@code agent.schedules.<name>}: a run of an agent or a workflow
 * queued at each fire time of a cron expression. Bound by {@link RunSchedules}; the
 * configuration processor does not see map values, so its keys are described in
 * {@code additional-spring-configuration-metadata.json}.
 */
public class RunScheduleProperties {

	/**
	 * Agent to run, by name. Set this or workflow.
	 */
	private @Nullable String agent;

	/**
	 * Workflow to run, by name. Set this or agent.
	 */
	private @Nullable String workflow;

	/**
	 * When to run: a Spring cron expression with seconds, such as "0 *&#47;5 * * * *"
	 * (every five minutes) or "0 0 2 * * MON-FRI".
	 */
	private @Nullable String cron;

	/**
	 * Time zone the cron expression is read in. By default the system's.
	 */
	private @Nullable ZoneId zone;

	/**
	 * Session of the runs. By default "schedule-<name>".
	 */
	private @Nullable String sessionId;

	/**
	 * Message sent to the agent in each run.
	 */
	private @Nullable String message;

	/**
	 * Input of each workflow run, as a map turned into JSON.
	 */
	private Map<String, Object> input = new LinkedHashMap<>();

	/**
	 * Whether the schedule runs.
	 */
	private boolean enabled = true;

	public @Nullable String getAgent() {
		return this.agent;
	}

	public void setAgent(@Nullable String agent) {
		this.agent = agent;
	}

	public @Nullable String getWorkflow() {
		return this.workflow;
	}

	public void setWorkflow(@Nullable String workflow) {
		this.workflow = workflow;
	}

	public @Nullable String getCron() {
		return this.cron;
	}

	public void setCron(@Nullable String cron) {
		this.cron = cron;
	}

	public @Nullable ZoneId getZone() {
		return this.zone;
	}

	public void setZone(@Nullable ZoneId zone) {
		this.zone = zone;
	}

	public @Nullable String getSessionId() {
		return this.sessionId;
	}

	public void setSessionId(@Nullable String sessionId) {
		this.sessionId = sessionId;
	}

	public @Nullable String getMessage() {
		return this.message;
	}

	public void setMessage(@Nullable String message) {
		this.message = message;
	}

	public Map<String, Object> getInput() {
		return this.input;
	}

	public void setInput(Map<String, Object> input) {
		this.input = input;
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

}
