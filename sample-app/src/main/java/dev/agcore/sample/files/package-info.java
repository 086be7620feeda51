/**
 * The shop's files that the librarian agent reads through the MCP filesystem server.
 */
@NullMarked
package dev.agcore.sample.files;

import org.jspecify.annotations.NullMarked;
