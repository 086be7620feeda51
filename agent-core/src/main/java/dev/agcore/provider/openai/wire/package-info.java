/**
 * The JSON shapes of the OpenAI chat completions API and their mapping to the library's
 * types. Internal: these types may change in any release without notice; no
 * compatibility is promised.
 */
@NullMarked
package dev.agcore.provider.openai.wire;

import org.jspecify.annotations.NullMarked;
