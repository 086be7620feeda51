/**
 * The sample's middleware: a bean whose hook-annotated method every agent runs.
 */
@NullMarked
package dev.agcore.sample.middleware;

import org.jspecify.annotations.NullMarked;
