/**
 * Support shared by the auto-configurations of this module. Not meant for use by
 * applications.
 */
@NullMarked
package dev.agcore.autoconfigure.support;

import org.jspecify.annotations.NullMarked;
