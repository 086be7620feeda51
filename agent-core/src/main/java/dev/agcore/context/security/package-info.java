/**
 * Spring Security's context carried to a turn's tools and hooks.
 */
@NullMarked
package dev.agcore.context.security;

import org.jspecify.annotations.NullMarked;
