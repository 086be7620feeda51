package dev.agcore.autoconfigure;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Guards tests that need a local service (PostgreSQL, Redis, MariaDB): they run when it
 * answers on 127.0.0.1, fail on CI ({@code CI=true}) when it does not, and are skipped
 * elsewhere with a message saying what to start.
 */
public final class LocalServices {

	private LocalServices() {
	}

	/**
	 * Require a service listening on a local port.
	 * @param service the service's name, for the message
	 * @param port its port on 127.0.0.1
	 */
	public static void require(String service, int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
		}
		catch (IOException ex) {
			String message = service + " is not reachable at 127.0.0.1:" + port + " (" + ex.getMessage() + ")";
			if ("true".equalsIgnoreCase(System.getenv("CI"))) {
				Assertions.fail(message + "; on CI it must be running");
			}
			Assumptions.abort(message + "; start it to run these tests");
		}
	}

}
