/**
 * Human-in-the-loop: tool calls that pause the turn until a person approves, edits or
 * rejects them.
 */
@NullMarked
package dev.agcore.middleware.approval;

import org.jspecify.annotations.NullMarked;
