package dev.agcore.autoconfigure.observation;

import dev.agcore.observation.ContentCapture;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Properties of agent observations ({@code agent.observations.*}).
 *
 * @since 0.1.0
 */
@ConfigurationProperties("agent.observations")
public class AgentObservationProperties {

	/**
	 * Whether prompts, completions, tool arguments and tool results are recorded on spans
	 * (as gen_ai.input.messages, gen_ai.output.messages, gen_ai.tool.call.arguments and
	 * gen_ai.tool.call.result), after secrets and personal data are redacted. Whoever can
	 * read the traces can read the content.
	 */
	private boolean captureContent;

	/**
	 * The longest captured text, in characters; the rest is cut off.
	 */
	private int maxContentLength = ContentCapture.DEFAULT_MAX_LENGTH;

	public boolean isCaptureContent() {
		return this.captureContent;
	}

	public void setCaptureContent(boolean captureContent) {
		this.captureContent = captureContent;
	}

	public int getMaxContentLength() {
		return this.maxContentLength;
	}

	public void setMaxContentLength(int maxContentLength) {
		this.maxContentLength = maxContentLength;
	}

}
