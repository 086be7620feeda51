/**
 * Built-in middleware: call limits, tool retry, model fallback, context management, PII
 * redaction, and metrics of hook invocations.
 */
@NullMarked
package dev.agcore.middleware.builtin;

import org.jspecify.annotations.NullMarked;
