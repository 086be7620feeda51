/**
 * A {@link dev.agcore.model.ChatModel} for the Google Gemini API
 * ({@code generateContent} and {@code streamGenerateContent}).
 */
@NullMarked
package dev.agcore.provider.gemini;

import org.jspecify.annotations.NullMarked;
