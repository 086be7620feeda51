/**
 * The tool SPI: what a tool looks like to the model ({@link dev.agcore.tool.ToolSpec}),
 * how it is run ({@link dev.agcore.tool.ToolCallback}) and where tools are found
 * ({@link dev.agcore.tool.ToolRegistry}).
 */
@NullMarked
package dev.agcore.tool;

import org.jspecify.annotations.NullMarked;
