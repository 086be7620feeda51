/**
 * What the model sees of a conversation: {@link dev.agcore.memory.window.ContextWindow}
 * strategies that shape each model request while the store keeps every message, and the
 * {@link dev.agcore.memory.window.TokenCounter} they count tokens with.
 */
@NullMarked
package dev.agcore.memory.window;

import org.jspecify.annotations.NullMarked;
