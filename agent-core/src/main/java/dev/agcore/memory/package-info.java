/**
 * Conversation storage (the {@link dev.agcore.memory.ConversationStore} SPI) and the
 * key-value memory tools keep ({@link dev.agcore.memory.KeyValueStore}, seen by tools as
 * {@link dev.agcore.memory.SessionMemory} and {@link dev.agcore.memory.LongTermStore}),
 * with in-memory implementations.
 */
@NullMarked
package dev.agcore.memory;

import org.jspecify.annotations.NullMarked;
