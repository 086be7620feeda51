/**
 * The answers the starter gives for agcore's exceptions in an application's own
 * controllers.
 */
@NullMarked
package dev.agcore.autoconfigure.web.problem;

import org.jspecify.annotations.NullMarked;
