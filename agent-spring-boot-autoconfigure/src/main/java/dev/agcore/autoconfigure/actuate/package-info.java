/**
 * Actuator support: the {@code agents} endpoint and the {@code agents} health
 * contributor.
 */
@NullMarked
package dev.agcore.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
