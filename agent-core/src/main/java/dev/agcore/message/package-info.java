/**
 * Immutable messages exchanged with a model: system, user, assistant and tool results.
 */
@NullMarked
package dev.agcore.message;

import org.jspecify.annotations.NullMarked;
