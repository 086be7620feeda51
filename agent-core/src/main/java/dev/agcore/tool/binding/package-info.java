/**
 * Support shared by the ways of declaring tools ({@code @Tool} methods, typed tools):
 * parsing and normalising the model's arguments, describing argument errors for the
 * model, Bean Validation, and declaration checks.
 */
@NullMarked
package dev.agcore.tool.binding;

import org.jspecify.annotations.NullMarked;
