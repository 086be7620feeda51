package dev.agcore.sample;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Guards the tests that need a real server (PostgreSQL, Redis), as agent-core's
 * {@code ServiceAvailability} does: they run when it answers; when it does not, they fail
 * on CI ({@code CI=true}), where the servers must be up, and are skipped elsewhere.
 */
final class Services {

	private Services() {
	}

	static void require(String service, String host, int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), 2000);
		}
		catch (IOException ex) {
			String message = service + " is not reachable at " + host + ":" + port + " (" + ex.getMessage() + ")";
			if ("true".equalsIgnoreCase(System.getenv("CI"))) {
				Assertions.fail(message + "; on CI it must be running (.ci/run starts it)");
			}
			Assumptions.abort(message + "; start it to run these tests");
		}
	}

}
