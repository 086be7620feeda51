/**
 * The JSON views of agent events and results, shared by the HTTP endpoint and background
 * runs.
 */
@NullMarked
package dev.agcore.autoconfigure.view;

import org.jspecify.annotations.NullMarked;
