/**
 * Auto-configuration of the AG-UI route: an agent's turn driven by an AG-UI client and
 * streamed back as AG-UI events.
 */
@NullMarked
package dev.agcore.autoconfigure.web.agui;

import org.jspecify.annotations.NullMarked;
