/**
 * The {@link AgentTest @AgentTest} slice: a test context with only the agent
 * auto-configurations, a {@link dev.agcore.testing.ScriptedChatModel} in place of every
 * provider, and the application's tool beans. Needs spring-boot-test-autoconfigure (an
 * optional dependency: use it from test scope).
 */
@NullMarked
package dev.agcore.autoconfigure.test;

import org.jspecify.annotations.NullMarked;
