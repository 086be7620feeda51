/**
 * Auto-configuration of agent metrics.
 */
@NullMarked
package dev.agcore.autoconfigure.observation;

import org.jspecify.annotations.NullMarked;
