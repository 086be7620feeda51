/**
 * Tools declared as {@link dev.agcore.Tool @Tool} methods on ordinary objects: discovery
 * ({@link dev.agcore.tool.method.MethodTools}) and invocation
 * ({@link dev.agcore.tool.method.MethodToolCallback}).
 */
@NullMarked
package dev.agcore.tool.method;

import org.jspecify.annotations.NullMarked;
