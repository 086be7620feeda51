/**
 * The chat model SPI: requests, responses, streamed chunks, usage and the exceptions a
 * model call can end with.
 */
@NullMarked
package dev.agcore.model;

import org.jspecify.annotations.NullMarked;
