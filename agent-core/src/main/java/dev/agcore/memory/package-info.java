/**
 * Conversation storage: the {@link dev.agcore.memory.ConversationStore} SPI and its
 * in-memory implementation.
 */
@NullMarked
package dev.agcore.memory;

import org.jspecify.annotations.NullMarked;
