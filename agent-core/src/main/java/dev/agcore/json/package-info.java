/**
 * Jackson defaults shared by the library.
 */
@NullMarked
package dev.agcore.json;

import org.jspecify.annotations.NullMarked;
