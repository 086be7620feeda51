/**
 * The versioned JSON form shared by persistent stores.
 */
@NullMarked
package dev.agcore.memory.codec;

import org.jspecify.annotations.NullMarked;
