/**
 * Small helpers every layer may use, such as {@link dev.agcore.support.LogSafe}, which
 * keeps caller and model text from forging log lines.
 */
@NullMarked
package dev.agcore.support;

import org.jspecify.annotations.NullMarked;
