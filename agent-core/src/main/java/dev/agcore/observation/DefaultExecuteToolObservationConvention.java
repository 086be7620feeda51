package dev.agcore.observation;

import dev.agcore.observation.AgentObservationDocumentation.HighCardinalityKeyNames;
import dev.agcore.observation.AgentObservationDocumentation.LowCardinalityKeyNames;
import io.micrometer.common.KeyValues;
import org.jspecify.annotations.Nullable;

/**
 * The default convention of tool calls: named {@code gen_ai.execute_tool}, shown as
 * {@code execute_tool {tool}}.
 */
public class DefaultExecuteToolObservationConvention implements ExecuteToolObservationConvention {

	/** The observation's name, and the name of the timer a meter handler makes of it. */
	public static final String NAME = "gen_ai.execute_tool";

	static final String OPERATION = "execute_tool";

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(ExecuteToolObservationContext context) {
		return OPERATION + " " + context.getToolName();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(ExecuteToolObservationContext context) {
		ToolOutcome outcome = context.getOutcome();
		return KeyValues.of(LowCardinalityKeyNames.OPERATION_NAME.withValue(OPERATION),
				LowCardinalityKeyNames.AGENT_NAME.withValue(context.getAgentName()),
				LowCardinalityKeyNames.TOOL_NAME.withValue(context.getToolName()),
				LowCardinalityKeyNames.TOOL_TYPE.withValue("function"),
				LowCardinalityKeyNames.OUTCOME
					.withValue((outcome != null) ? outcome.tagValue() : AgentObservationDocumentation.NONE),
				LowCardinalityKeyNames.ERROR_TYPE.withValue(errorType(context, outcome)));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(ExecuteToolObservationContext context) {
		return KeyValues.of(HighCardinalityKeyNames.CONVERSATION_ID.withValue(context.getSessionId()),
				HighCardinalityKeyNames.TOOL_CALL_ID.withValue(context.getToolCallId()));
	}

	private static String errorType(ExecuteToolObservationContext context, @Nullable ToolOutcome outcome) {
		if (context.getError() != null) {
			return Errors.type(context.getError());
		}
		return (outcome == null || outcome == ToolOutcome.SUCCESS) ? AgentObservationDocumentation.NONE
				: outcome.tagValue();
	}

}
