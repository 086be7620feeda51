/**
 * A {@link dev.agcore.model.ChatModel} for the OpenAI chat completions API and the many
 * servers that implement it (Azure OpenAI, Ollama, vLLM, LM Studio, LiteLLM, ...).
 */
@NullMarked
package dev.agcore.provider.openai;

import org.jspecify.annotations.NullMarked;
