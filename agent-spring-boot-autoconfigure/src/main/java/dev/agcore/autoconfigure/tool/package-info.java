/**
 * Auto-configuration of the tool registry from {@link dev.agcore.tool.ToolCallback} beans
 * and beans with {@link dev.agcore.Tool @Tool} methods.
 */
@NullMarked
package dev.agcore.autoconfigure.tool;

import org.jspecify.annotations.NullMarked;
