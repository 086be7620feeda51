/**
 * Auto-configuration of the HTTP endpoint that exposes agents: WebFlux functional routes
 * for listing, invoking and streaming agents and reading their conversations.
 */
@NullMarked
package dev.agcore.autoconfigure.web;

import org.jspecify.annotations.NullMarked;
