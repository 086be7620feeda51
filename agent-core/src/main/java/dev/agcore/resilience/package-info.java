/**
 * Resilience decorators for chat models, built on resilience4j: retry with exponential
 * backoff that honours a server's {@code Retry-After}.
 */
@NullMarked
package dev.agcore.resilience;

import org.jspecify.annotations.NullMarked;
