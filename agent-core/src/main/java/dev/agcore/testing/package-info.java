/**
 * Test support: a scripted chat model that answers without any network, for tests,
 * demos and benchmarks.
 */
@NullMarked
package dev.agcore.testing;

import org.jspecify.annotations.NullMarked;
