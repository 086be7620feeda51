/**
 * Auto-configuration of agents: one bean per {@code agent.agents} entry and the
 * {@link dev.agcore.runtime.AgentRegistry}.
 */
@NullMarked
package dev.agcore.autoconfigure.agent;

import org.jspecify.annotations.NullMarked;
