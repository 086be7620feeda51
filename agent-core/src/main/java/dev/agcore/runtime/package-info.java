/**
 * Agents: the tool-calling loop, its requests, results and streamed events, and the
 * registry of named agents.
 */
@NullMarked
package dev.agcore.runtime;

import org.jspecify.annotations.NullMarked;
