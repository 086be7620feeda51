/**
 * The tool SPI: what a tool looks like to the model ({@link dev.agcore.tool.ToolSpec}),
 * what the runtime knows about it ({@link dev.agcore.tool.ToolMetadata}), how it is run
 * ({@link dev.agcore.tool.ToolCallback}), where tools are found
 * ({@link dev.agcore.tool.ToolRegistry}) and which of them an agent may use
 * ({@link dev.agcore.tool.ToolScope}).
 */
@NullMarked
package dev.agcore.tool;

import org.jspecify.annotations.NullMarked;
