/**
 * Auto-configuration of the A2A client ({@code agent.a2a.remotes}): each remote agent a
 * tool of that name, given to the configured agents within their tool scope.
 */
@NullMarked
package dev.agcore.autoconfigure.a2a;

import org.jspecify.annotations.NullMarked;
