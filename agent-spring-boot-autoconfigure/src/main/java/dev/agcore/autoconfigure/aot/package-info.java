/**
 * Spring AOT and GraalVM native image support: the reflection and resource hints the
 * starter needs at run time, and the hints for the application's {@code @Tool},
 * {@code @Entrypoint}, {@code @Task}, {@code @Chain} and middleware hook methods.
 */
@NullMarked
package dev.agcore.autoconfigure.aot;

import org.jspecify.annotations.NullMarked;
