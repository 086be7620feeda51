/**
 * Permission policies: whether an agent may make a tool call, decided before the tool
 * runs.
 */
@NullMarked
package dev.agcore.tool.permission;

import org.jspecify.annotations.NullMarked;
