/**
 * Tool calling for models without native tool calling: the tools described in the system
 * prompt, calls written as {@code <use_tool>} blocks in the answer text and parsed out of
 * it, whole or as it streams.
 */
@NullMarked
package dev.agcore.model.xml;

import org.jspecify.annotations.NullMarked;
