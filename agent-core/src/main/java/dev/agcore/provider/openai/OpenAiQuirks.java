package dev.agcore.provider.openai;

/**
 * How an OpenAI-compatible server departs from the OpenAI chat completions API. Each
 * flag says what to send; the presets of the auto-configuration pick them per server.
 *
 * @param developerRole whether developer instructions
 * ({@link dev.agcore.message.SystemMessage#developer()}) are sent with the
 * {@code developer} role; otherwise as {@code system}, which every server knows
 * @param maxCompletionTokens whether the token limit is sent as
 * {@code max_completion_tokens} (OpenAI, which reasoning models require) rather than
 * {@code max_tokens}
 * @param streamUsage whether a streamed request asks for usage with
 * {@code stream_options.include_usage}; Mistral rejects the field and reports usage
 * anyway
 * @param randomSeed whether the seed is sent as {@code random_seed} (Mistral) rather than
 * {@code seed}
 * @param sendReasoningContent whether the reasoning of an assistant message with tool
 * calls is sent back as {@code reasoning_content}, as DeepSeek's thinking mode requires
 */
public record OpenAiQuirks(boolean developerRole, boolean maxCompletionTokens, boolean streamUsage,
		boolean randomSeed, boolean sendReasoningContent) {

	/**
	 * Any OpenAI-compatible server: {@code system} for developer instructions,
	 * {@code max_tokens}, usage asked for in streams.
	 */
	public static final OpenAiQuirks COMPATIBLE = new OpenAiQuirks(false, false, true, false, false);

	/** OpenAI and Azure OpenAI. */
	public static final OpenAiQuirks OPENAI = new OpenAiQuirks(true, true, true, false, false);

	/**
	 * Azure OpenAI: as OpenAI, but developer instructions as {@code system}, since the
	 * {@code developer} role needs api-version 2024-12-01-preview or later.
	 */
	public static final OpenAiQuirks AZURE = new OpenAiQuirks(false, true, true, false, false);

	/** DeepSeek: reasoning of tool-calling turns goes back as {@code reasoning_content}. */
	public static final OpenAiQuirks DEEPSEEK = new OpenAiQuirks(false, false, true, false, true);

	/** Mistral: {@code random_seed}, no {@code stream_options}. */
	public static final OpenAiQuirks MISTRAL = new OpenAiQuirks(false, false, false, true, false);

}
