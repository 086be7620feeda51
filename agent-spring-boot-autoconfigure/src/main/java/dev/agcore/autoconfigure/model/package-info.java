/**
 * Auto-configuration of chat models: one per {@code agent.providers} entry, with retries,
 * next to the user's {@link dev.agcore.model.ChatModel} beans.
 */
@NullMarked
package dev.agcore.autoconfigure.model;

import org.jspecify.annotations.NullMarked;
