/**
 * Secret references in tool arguments: {@code <secret_ref:NAME>} placeholders the model
 * writes instead of secrets, resolved just before a tool runs and never stored, logged
 * or sent back.
 */
@NullMarked
package dev.agcore.tool.secret;

import org.jspecify.annotations.NullMarked;
