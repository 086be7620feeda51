/**
 * Auto-configuration for agcore: turns {@code agent.*} properties and beans into
 * configured models, tools and agents.
 */
@NullMarked
package dev.agcore.autoconfigure;

import org.jspecify.annotations.NullMarked;
