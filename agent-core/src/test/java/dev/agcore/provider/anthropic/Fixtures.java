package dev.agcore.provider.anthropic;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import mockwebserver3.MockResponse;

/**
 * Test fixtures in {@code dev/agcore/provider/anthropic} and responses built from them.
 */
final class Fixtures {

	private Fixtures() {
	}

	static String read(String name) {
		try (InputStream in = Fixtures.class.getResourceAsStream(name)) {
			if (in == null) {
				throw new IllegalArgumentException("No fixture " + name);
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static MockResponse json(int status, String fixture) {
		return new MockResponse.Builder().code(status)
			.addHeader("Content-Type", "application/json")
			.body(read(fixture))
			.build();
	}

	static MockResponse sse(String body) {
		return new MockResponse.Builder().code(200).addHeader("Content-Type", "text/event-stream").body(body).build();
	}

}
