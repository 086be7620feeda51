package dev.agcore.observation;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import dev.agcore.model.FinishReason;
import dev.agcore.observation.AgentObservationDocumentation.HighCardinalityKeyNames;
import dev.agcore.observation.AgentObservationDocumentation.LowCardinalityKeyNames;
import io.micrometer.common.KeyValues;

/**
 * The default convention of model calls: named {@code gen_ai.client.operation}, shown as
 * {@code chat {model}}.
 */
public class DefaultChatObservationConvention implements ChatObservationConvention {

	/** The observation's name, and the name of the timer a meter handler makes of it. */
	public static final String NAME = "gen_ai.client.operation";

	static final String OPERATION = "chat";

	private static final String[] TAG_VALUES = Arrays.stream(FinishReason.values())
		.map((reason) -> reason.name().toLowerCase(Locale.ROOT))
		.toArray(String[]::new);

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(ChatObservationContext context) {
		return OPERATION + " " + context.getRequestModel();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(ChatObservationContext context) {
		String responseModel = context.getResponseModel();
		return KeyValues.of(LowCardinalityKeyNames.OPERATION_NAME.withValue(OPERATION),
				LowCardinalityKeyNames.AGENT_NAME.withValue(context.getAgentName()),
				LowCardinalityKeyNames.PROVIDER_NAME.withValue(GenAiProviderNames.of(context.getProviderName())),
				LowCardinalityKeyNames.REQUEST_MODEL.withValue(context.getRequestModel()),
				LowCardinalityKeyNames.RESPONSE_MODEL
					.withValue((responseModel != null && !responseModel.isEmpty()) ? responseModel
							: AgentObservationDocumentation.NONE),
				LowCardinalityKeyNames.FINISH_REASONS.withValue(finishReasons(context)),
				LowCardinalityKeyNames.ERROR_TYPE.withValue(Errors.type(context.getError())));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(ChatObservationContext context) {
		KeyValues values = KeyValues.of(HighCardinalityKeyNames.CONVERSATION_ID.withValue(context.getSessionId()));
		String responseId = context.getResponseId();
		if (responseId != null) {
			values = values.and(HighCardinalityKeyNames.RESPONSE_ID.withValue(responseId));
		}
		if (!context.getUsage().isEmpty()) {
			values = values.and(
					HighCardinalityKeyNames.INPUT_TOKENS.withValue(Long.toString(context.getUsage().inputTokens())),
					HighCardinalityKeyNames.OUTPUT_TOKENS.withValue(Long.toString(context.getUsage().outputTokens())));
		}
		return values;
	}

	// a fixed set of values: the enum, never the provider's own words
	private static String finishReasons(ChatObservationContext context) {
		if (context.getFinishReasons().isEmpty()) {
			return AgentObservationDocumentation.NONE;
		}
		if (context.getFinishReasons().size() == 1) {
			// the usual single reason: its tag value made once, not on every call
			return TAG_VALUES[context.getFinishReasons().get(0).ordinal()];
		}
		return context.getFinishReasons()
			.stream()
			.map((reason) -> reason.name().toLowerCase(Locale.ROOT))
			.distinct()
			.collect(Collectors.joining(","));
	}


}
