/**
 * Demo mode: lets the sample run without an API key on a deterministic script. Not part
 * of what a real application needs.
 */
@NullMarked
package dev.agcore.sample.demo;

import org.jspecify.annotations.NullMarked;
