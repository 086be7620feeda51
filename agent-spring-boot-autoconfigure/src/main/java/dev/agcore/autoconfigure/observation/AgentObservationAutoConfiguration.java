package dev.agcore.autoconfigure.observation;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.middleware.builtin.PiiRedactionMiddleware;
import dev.agcore.observation.AgentObservations;
import dev.agcore.observation.ChatObservationConvention;
import dev.agcore.observation.ContentCapture;
import dev.agcore.observation.DefaultChatObservationConvention;
import dev.agcore.observation.DefaultExecuteToolObservationConvention;
import dev.agcore.observation.DefaultInvokeAgentObservationConvention;
import dev.agcore.observation.ExecuteToolObservationConvention;
import dev.agcore.observation.InvokeAgentObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for {@link AgentObservations}: the
 * agents' turns, model calls and tool calls are observed in the application's
 * {@link ObservationRegistry} when there is one, named by the
 * {@link InvokeAgentObservationConvention}, {@link ChatObservationConvention} and
 * {@link ExecuteToolObservationConvention} beans, else by the default conventions.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@EnableConfigurationProperties(AgentObservationProperties.class)
public final class AgentObservationAutoConfiguration {

	private static final Log logger = LogFactory.getLog(AgentObservationAutoConfiguration.class);

	@Bean
	@ConditionalOnMissingBean
	AgentObservations agentObservations(AgentObservationProperties properties,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<InvokeAgentObservationConvention> invokeAgentConvention,
			ObjectProvider<ChatObservationConvention> chatConvention,
			ObjectProvider<ExecuteToolObservationConvention> executeToolConvention) {
		ObservationRegistry registry = observationRegistry.getIfUnique(() -> ObservationRegistry.NOOP);
		return AgentObservations.builder(registry)
			.invokeAgentConvention(invokeAgentConvention.getIfAvailable(DefaultInvokeAgentObservationConvention::new))
			.chatConvention(chatConvention.getIfAvailable(DefaultChatObservationConvention::new))
			.executeToolConvention(executeToolConvention.getIfAvailable(DefaultExecuteToolObservationConvention::new))
			.contentCapture(contentCapture(properties, registry))
			.build();
	}

	private static ContentCapture contentCapture(AgentObservationProperties properties, ObservationRegistry registry) {
		int maxLength = properties.getMaxContentLength();
		if (maxLength < 1) {
			throw new AgentConfigurationException(
					"agent.observations.max-content-length must be positive, was " + maxLength,
					"Set agent.observations.max-content-length to the longest captured text, e.g. 4096.");
		}
		if (!properties.isCaptureContent()) {
			return ContentCapture.OFF;
		}
		// content on spans is readable by whoever reads the traces: an operator must know
		logger.warn("agent.observations.capture-content is on: prompts, completions, tool arguments and tool "
				+ "results are recorded on spans (secrets and personal data redacted, cut to " + maxLength
				+ " characters)" + (registry.isNoop() ? ", but there is no ObservationRegistry to record them" : ""));
		return ContentCapture.on(maxLength, PiiRedactionMiddleware.redactor());
	}

}
