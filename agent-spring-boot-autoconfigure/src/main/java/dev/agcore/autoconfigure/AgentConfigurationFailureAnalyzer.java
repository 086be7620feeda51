package dev.agcore.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an {@link AgentConfigurationException} as a description and an action
 * instead of a stack trace.
 */
class AgentConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<AgentConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, AgentConfigurationException cause) {
		return new FailureAnalysis(cause.getMessage(), cause.getAction(), cause);
	}

}
