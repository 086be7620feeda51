/**
 * Plumbing shared by HTTP model providers: server-sent events decoding, the mapping of
 * HTTP and transport failures to {@link dev.agcore.model.ModelException}s, and
 * {@code Retry-After} parsing.
 */
@NullMarked
package dev.agcore.provider.support;

import org.jspecify.annotations.NullMarked;
