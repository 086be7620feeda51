/**
 * The {@code remember} and {@code recall} tools: long-term memory the model reads and
 * writes itself, per user, session or agent.
 */
@NullMarked
package dev.agcore.tool.memory;

import org.jspecify.annotations.NullMarked;
