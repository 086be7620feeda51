/**
 * Auto-configuration of the prompt template registry, loaded from
 * {@code classpath:prompts/**}{@code /*.hbs}.
 */
@NullMarked
package dev.agcore.autoconfigure.prompt;

import org.jspecify.annotations.NullMarked;
