/**
 * Auto-configuration of tools: the tool registry from {@link dev.agcore.tool.ToolCallback},
 * {@link dev.agcore.tool.typed.TypedTool} and {@link dev.agcore.Tool @Tool} beans, the
 * shared argument binding, secrets, and each configured agent's tool scope and
 * permissions.
 */
@NullMarked
package dev.agcore.autoconfigure.tool;

import org.jspecify.annotations.NullMarked;
