/**
 * A {@link dev.agcore.model.ChatModel} for the Anthropic Messages API ({@code POST
 * /v1/messages}): tools, streaming, extended thinking, prompt caching, images and PDFs,
 * and structured output through a forced answer tool.
 */
@NullMarked
package dev.agcore.provider.anthropic;

import org.jspecify.annotations.NullMarked;
