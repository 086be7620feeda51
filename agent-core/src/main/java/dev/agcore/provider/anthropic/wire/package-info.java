/**
 * The JSON shapes of the Anthropic Messages API and their mapping to the library's types.
 * Internal: these types may change in any release without notice; no compatibility is
 * promised.
 */
@NullMarked
package dev.agcore.provider.anthropic.wire;

import org.jspecify.annotations.NullMarked;
