package dev.agcore.observation;

import dev.agcore.observation.AgentObservationDocumentation.HighCardinalityKeyNames;
import dev.agcore.observation.AgentObservationDocumentation.LowCardinalityKeyNames;
import io.micrometer.common.KeyValues;

/**
 * The default convention of turns: named {@code gen_ai.invoke_agent}, shown as
 * {@code invoke_agent {agent}}.
 */
public class DefaultInvokeAgentObservationConvention implements InvokeAgentObservationConvention {

	/** The observation's name, and the name of the timer a meter handler makes of it. */
	public static final String NAME = "gen_ai.invoke_agent";

	static final String OPERATION = "invoke_agent";

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(InvokeAgentObservationContext context) {
		return OPERATION + " " + context.getAgentName();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(InvokeAgentObservationContext context) {
		String outcome = context.getOutcome();
		return KeyValues.of(LowCardinalityKeyNames.OPERATION_NAME.withValue(OPERATION),
				LowCardinalityKeyNames.AGENT_NAME.withValue(context.getAgentName()),
				LowCardinalityKeyNames.PROVIDER_NAME.withValue(GenAiProviderNames.of(context.getProviderName())),
				LowCardinalityKeyNames.REQUEST_MODEL.withValue(context.getRequestModel()),
				LowCardinalityKeyNames.OUTCOME.withValue((outcome != null) ? outcome : AgentObservationDocumentation.NONE),
				LowCardinalityKeyNames.ERROR_TYPE.withValue(Errors.type(context.getError())));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(InvokeAgentObservationContext context) {
		KeyValues values = KeyValues.of(HighCardinalityKeyNames.CONVERSATION_ID.withValue(context.getSessionId()));
		if (!context.getUsage().isEmpty()) {
			values = values.and(
					HighCardinalityKeyNames.INPUT_TOKENS.withValue(Long.toString(context.getUsage().inputTokens())),
					HighCardinalityKeyNames.OUTPUT_TOKENS.withValue(Long.toString(context.getUsage().outputTokens())));
		}
		if (context.getModelCalls() >= 0) {
			values = values.and(HighCardinalityKeyNames.MODEL_CALLS.withValue(Integer.toString(context.getModelCalls())),
					HighCardinalityKeyNames.TOOL_CALLS.withValue(Integer.toString(context.getToolCalls())));
		}
		return values;
	}

}
