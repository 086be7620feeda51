/**
 * agcore: build AI agents on Spring. The root package holds the annotations users put on
 * their tools and the root exception type.
 */
@NullMarked
package dev.agcore;

import org.jspecify.annotations.NullMarked;
