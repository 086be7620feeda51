/**
 * Auto-configuration for background runs and their schedules.
 */
@NullMarked
package dev.agcore.autoconfigure.run;

import org.jspecify.annotations.NullMarked;
