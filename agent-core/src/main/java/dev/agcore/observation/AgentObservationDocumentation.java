package dev.agcore.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observations of an agent turn, named after the OpenTelemetry GenAI semantic
 * conventions: {@link #INVOKE_AGENT} around a turn, {@link #CHAT} around each model call
 * and {@link #EXECUTE_TOOL} around each tool call, both children of the turn.
 * <p>
 * Low-cardinality key values become span attributes and meter tags; their values come
 * from configuration or from small fixed sets, never from user input or model output.
 * High-cardinality key values (ids, token counts, captured content) become span
 * attributes only.
 */
public enum AgentObservationDocumentation implements ObservationDocumentation {

	/**
	 * A turn of an agent: {@code invoke_agent {agent}}.
	 */
	INVOKE_AGENT {
		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultInvokeAgentObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return new KeyName[] { LowCardinalityKeyNames.OPERATION_NAME, LowCardinalityKeyNames.AGENT_NAME,
					LowCardinalityKeyNames.PROVIDER_NAME, LowCardinalityKeyNames.REQUEST_MODEL,
					LowCardinalityKeyNames.OUTCOME, LowCardinalityKeyNames.ERROR_TYPE };
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return new KeyName[] { HighCardinalityKeyNames.CONVERSATION_ID, HighCardinalityKeyNames.INPUT_TOKENS,
					HighCardinalityKeyNames.OUTPUT_TOKENS, HighCardinalityKeyNames.MODEL_CALLS,
					HighCardinalityKeyNames.TOOL_CALLS };
		}

		@Override
		public Observation.Event[] getEvents() {
			return new Observation.Event[] { Events.BEFORE_AGENT, Events.BEFORE_MODEL, Events.AFTER_MODEL,
					Events.AFTER_AGENT };
		}
	},

	/**
	 * One model call, streamed or not, from the request to the last chunk:
	 * {@code chat {model}}.
	 */
	CHAT {
		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultChatObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return new KeyName[] { LowCardinalityKeyNames.OPERATION_NAME, LowCardinalityKeyNames.AGENT_NAME,
					LowCardinalityKeyNames.PROVIDER_NAME, LowCardinalityKeyNames.REQUEST_MODEL,
					LowCardinalityKeyNames.RESPONSE_MODEL, LowCardinalityKeyNames.FINISH_REASONS,
					LowCardinalityKeyNames.ERROR_TYPE };
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return new KeyName[] { HighCardinalityKeyNames.CONVERSATION_ID, HighCardinalityKeyNames.RESPONSE_ID,
					HighCardinalityKeyNames.INPUT_TOKENS, HighCardinalityKeyNames.OUTPUT_TOKENS,
					HighCardinalityKeyNames.INPUT_MESSAGES, HighCardinalityKeyNames.OUTPUT_MESSAGES };
		}

		@Override
		public Observation.Event[] getEvents() {
			return new Observation.Event[] { Events.RETRY };
		}
	},

	/**
	 * One tool call, from its start on the tool scheduler to its result or timeout:
	 * {@code execute_tool {tool}}.
	 */
	EXECUTE_TOOL {
		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultExecuteToolObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return new KeyName[] { LowCardinalityKeyNames.OPERATION_NAME, LowCardinalityKeyNames.AGENT_NAME,
					LowCardinalityKeyNames.TOOL_NAME, LowCardinalityKeyNames.TOOL_TYPE, LowCardinalityKeyNames.OUTCOME,
					LowCardinalityKeyNames.ERROR_TYPE };
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return new KeyName[] { HighCardinalityKeyNames.CONVERSATION_ID, HighCardinalityKeyNames.TOOL_CALL_ID,
					HighCardinalityKeyNames.TOOL_CALL_ARGUMENTS, HighCardinalityKeyNames.TOOL_CALL_RESULT };
		}
	};

	/** The value of {@code error.type} (and of absent bounded values) when there is none. */
	public static final String NONE = "none";

	/**
	 * Low-cardinality keys: span attributes and meter tags.
	 */
	public enum LowCardinalityKeyNames implements KeyName {

		/** {@code invoke_agent}, {@code chat} or {@code execute_tool}. */
		OPERATION_NAME("gen_ai.operation.name"),

		/** The provider, as an OpenTelemetry well-known value where there is one. */
		PROVIDER_NAME("gen_ai.provider.name"),

		/** The model the request names (configuration). */
		REQUEST_MODEL("gen_ai.request.model"),

		/** The model the provider says answered, {@code none} when it says nothing. */
		RESPONSE_MODEL("gen_ai.response.model"),

		/** The agent's name (configuration). */
		AGENT_NAME("gen_ai.agent.name"),

		/** The tool's name: one of the agent's tools, or {@code unknown}. */
		TOOL_NAME("gen_ai.tool.name"),

		/** {@code function}: every tool is called by the client. */
		TOOL_TYPE("gen_ai.tool.type"),

		/** Why the model stopped: {@code stop}, {@code length}, {@code tool_calls}... */
		FINISH_REASONS("gen_ai.response.finish_reasons"),

		/**
		 * How a turn ended ({@code completed}, {@code max_iterations}, {@code interrupted},
		 * {@code error}, {@code cancelled}) or a tool call ({@code success}, {@code error},
		 * {@code denied}, {@code timeout}, {@code cancelled}).
		 */
		OUTCOME("agent.outcome"),

		/** The simple class name of the failure, {@code none} on success. */
		ERROR_TYPE("error.type");

		private final String key;

		LowCardinalityKeyNames(String key) {
			this.key = key;
		}

		@Override
		public String asString() {
			return this.key;
		}

	}

	/**
	 * High-cardinality keys: span attributes only, never meter tags.
	 */
	public enum HighCardinalityKeyNames implements KeyName {

		/** The session id. */
		CONVERSATION_ID("gen_ai.conversation.id"),

		/** The id of the tool call, as the model gave it. */
		TOOL_CALL_ID("gen_ai.tool.call.id"),

		/** The id of the provider's response, when it reports one. */
		RESPONSE_ID("gen_ai.response.id"),

		/** Input tokens of a model call, or of all the calls of a turn. */
		INPUT_TOKENS("gen_ai.usage.input_tokens"),

		/** Output tokens of a model call, or of all the calls of a turn. */
		OUTPUT_TOKENS("gen_ai.usage.output_tokens"),

		/** Model calls of a turn. */
		MODEL_CALLS("agent.model_calls"),

		/** Tool calls of a turn. */
		TOOL_CALLS("agent.tool_calls"),

		/** The prompt, captured and redacted only when content capture is on. */
		INPUT_MESSAGES("gen_ai.input.messages"),

		/** The completion, captured and redacted only when content capture is on. */
		OUTPUT_MESSAGES("gen_ai.output.messages"),

		/** The tool's arguments, captured and redacted only when content capture is on. */
		TOOL_CALL_ARGUMENTS("gen_ai.tool.call.arguments"),

		/** The tool's result, captured and redacted only when content capture is on. */
		TOOL_CALL_RESULT("gen_ai.tool.call.result");

		private final String key;

		HighCardinalityKeyNames(String key) {
			this.key = key;
		}

		@Override
		public String asString() {
			return this.key;
		}

	}

	/**
	 * Events of a turn (middleware hooks) and of a model call (retries).
	 */
	public enum Events implements Observation.Event {

		/** The before-agent hooks ran. */
		BEFORE_AGENT("agent.hook.before_agent", "before_agent"),

		/** The before-model hooks ran. */
		BEFORE_MODEL("agent.hook.before_model", "before_model"),

		/** The after-model hooks ran. */
		AFTER_MODEL("agent.hook.after_model", "after_model"),

		/** The after-agent hooks ran. */
		AFTER_AGENT("agent.hook.after_agent", "after_agent"),

		/** A model call failed and is tried again. */
		RETRY("gen_ai.client.retry", "retry");

		private final String name;

		private final String contextualName;

		Events(String name, String contextualName) {
			this.name = name;
			this.contextualName = contextualName;
		}

		@Override
		public String getName() {
			return this.name;
		}

		@Override
		public String getContextualName() {
			return this.contextualName;
		}

	}

}
