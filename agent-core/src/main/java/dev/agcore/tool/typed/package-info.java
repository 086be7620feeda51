/**
 * Typed tools: a tool whose arguments are one record type, which produces both the
 * schema and the bound value ({@link dev.agcore.tool.typed.TypedTool}), and the bridge
 * into the tool registry ({@link dev.agcore.tool.typed.TypedTools}).
 */
@NullMarked
package dev.agcore.tool.typed;

import org.jspecify.annotations.NullMarked;
