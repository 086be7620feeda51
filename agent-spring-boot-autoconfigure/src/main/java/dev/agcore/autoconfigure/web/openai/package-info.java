/**
 * Auto-configuration of an OpenAI-compatible endpoint: the Chat Completions and Models
 * routes of the OpenAI API, answered by the agents, so any OpenAI SDK or chat front end
 * can talk to them.
 */
@NullMarked
package dev.agcore.autoconfigure.web.openai;

import org.jspecify.annotations.NullMarked;
