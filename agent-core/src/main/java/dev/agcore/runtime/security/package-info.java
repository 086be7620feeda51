/**
 * The caller of a turn as Spring Security knows it, for the agent's one check of who may
 * use a session.
 */
@NullMarked
package dev.agcore.runtime.security;

import org.jspecify.annotations.NullMarked;
