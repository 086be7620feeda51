/**
 * The sample's tools: ordinary beans with {@link dev.agcore.Tool @Tool} methods.
 */
@NullMarked
package dev.agcore.sample.tools;

import org.jspecify.annotations.NullMarked;
