/**
 * Actuator support: the {@code agents} endpoint.
 */
@NullMarked
package dev.agcore.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
