/**
 * An A2A (Agent2Agent protocol, version 0.3) server for one agent: the JSON-RPC methods
 * {@code message/send}, {@code message/stream}, {@code tasks/get} and
 * {@code tasks/cancel} ({@link dev.agcore.a2a.server.A2aServer}), the agent's Agent Card
 * ({@link dev.agcore.a2a.server.A2aAgentCards}) and its tasks kept in a
 * {@link dev.agcore.memory.KeyValueStore} ({@link dev.agcore.a2a.server.A2aTaskStore}).
 * A task is a turn of the agent in the session named by the task's context id; a turn
 * paused for a human approval is a task in state {@code input-required}.
 * <p>
 * Needs the optional dependency {@code io.github.a2asdk:a2a-java-sdk-spec}, whose types
 * use Jackson 2: Jackson 2 and {@code io.a2a} are used nowhere else in agcore.
 */
@NullMarked
package dev.agcore.a2a.server;

import org.jspecify.annotations.NullMarked;
