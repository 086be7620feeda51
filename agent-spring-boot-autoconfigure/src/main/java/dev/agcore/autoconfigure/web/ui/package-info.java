/**
 * Auto-configuration of the agent chat page: a developer tool, served next to the agent
 * endpoint, that talks to the agents through that endpoint's HTTP API only.
 */
@NullMarked
package dev.agcore.autoconfigure.web.ui;

import org.jspecify.annotations.NullMarked;
