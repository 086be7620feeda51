/**
 * Auto-configuration of the conversation store.
 */
@NullMarked
package dev.agcore.autoconfigure.memory;

import org.jspecify.annotations.NullMarked;
