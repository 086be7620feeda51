/**
 * The JSON shapes of the Gemini API, their mapping to the library's types and the
 * conversion of JSON schemas to Gemini's OpenAPI subset. Internal: these types may
 * change in any release without notice; no compatibility is promised.
 */
@NullMarked
package dev.agcore.provider.gemini.wire;

import org.jspecify.annotations.NullMarked;
