package dev.agcore.docs.support;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Snippets that need a real server (Redis, PostgreSQL): their tests skip with a message
 * when it is not running, and fail on CI ({@code CI=true}), where it must be.
 */
public final class Services {

	private Services() {
	}

	/** Require Redis on 127.0.0.1:6379. */
	public static void requireRedis() {
		require("Redis", "127.0.0.1", 6379);
	}

	/** Require PostgreSQL on 127.0.0.1:5432 (database {@code test}, trust authentication). */
	public static void requirePostgres() {
		require("PostgreSQL", "127.0.0.1", 5432);
	}

	private static void require(String service, String host, int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), 2000);
		}
		catch (IOException ex) {
			String message = service + " is not reachable at " + host + ":" + port + " (" + ex.getMessage() + ")";
			if ("true".equalsIgnoreCase(System.getenv("CI"))) {
				Assertions.fail(message + "; on CI it must be running (.ci/run starts it)");
			}
			Assumptions.abort(message + "; start it to run this snippet's test");
		}
	}

}
