package dev.agcore.autoconfigure.memory.redis;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

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
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(HOST, PORT), 2000);
		}
		catch (IOException ex) {
			String message = "Redis is not reachable at " + HOST + ":" + PORT + " (" + ex.getMessage() + ")";
			if ("true".equalsIgnoreCase(System.getenv("CI"))) {
				Assertions.fail(message + "; on CI it must be running");
			}
			Assumptions.abort(message + "; start it to run these tests");
		}
	}

}
