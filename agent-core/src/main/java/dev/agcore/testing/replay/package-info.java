/**
 * Record and replay of model calls: a {@link CassetteChatModel} records what a real model
 * answered to a file under {@code src/test/resources} once, then replays it offline and
 * fails with a diff when a request differs from the recorded one.
 */
@NullMarked
package dev.agcore.testing.replay;

import org.jspecify.annotations.NullMarked;
