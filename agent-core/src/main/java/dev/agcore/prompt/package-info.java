/**
 * Prompt templates: the seeds' {@code {{var}}}, {@code {{#if}}}, {@code {{#each}}},
 * {@code {{#raw}}} and {@code {{> partial}}} syntax on Handlebars.java, strict about
 * missing variables, never HTML-escaping, with a depth limit that catches cyclic partials;
 * and a registry whose templates are each other's partials.
 */
@NullMarked
package dev.agcore.prompt;

import org.jspecify.annotations.NullMarked;
