/**
 * A sample application built on the agcore starter: an assistant with a few tools,
 * exposed over HTTP.
 */
@NullMarked
package dev.agcore.sample;

import org.jspecify.annotations.NullMarked;
