/**
 * Annotations that turn bean methods into middleware hooks, and the adapter that reads
 * them.
 */
@NullMarked
package dev.agcore.middleware.annotation;

import org.jspecify.annotations.NullMarked;
