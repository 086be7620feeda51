/**
 * Auto-configuration of agent middleware: middleware beans, beans with hook-annotated
 * methods and the built-ins configured under {@code agent.agents.<name>.middleware}.
 */
@NullMarked
package dev.agcore.autoconfigure.middleware;

import org.jspecify.annotations.NullMarked;
