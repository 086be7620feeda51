package dev.agcore.autoconfigure.memory.redis;

import dev.agcore.autoconfigure.LocalServices;

/**
 * Guards tests that need the local Redis: they run when it answers, fail on CI
 * ({@code CI=true}) when it does not, and are skipped elsewhere.
 */
final class RedisAvailability {

	static final String HOST = "127.0.0.1";

	static final int PORT = 6379;

	private RedisAvailability() {
	}

	static void require() {
		LocalServices.require("Redis", PORT);
	}

}
