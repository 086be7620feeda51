/**
 * JSON schema generation for tool arguments: the schema the model sees is derived from
 * the same Java types the arguments are bound to.
 */
@NullMarked
package dev.agcore.tool.schema;

import org.jspecify.annotations.NullMarked;
