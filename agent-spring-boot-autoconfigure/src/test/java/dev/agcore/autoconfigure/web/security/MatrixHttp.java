package dev.agcore.autoconfigure.web.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import dev.agcore.json.AgentJson;
import org.jspecify.annotations.Nullable;

/**
 * A caller of a running application over a real socket, as a browser or a script would
 * be: the JDK's HTTP client, HTTP Basic credentials or none, and the whole answer read as
 * text (a server-sent event stream to its end).
 */
final class MatrixHttp {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

	private final String baseUrl;

	private final @Nullable String user;

	private MatrixHttp(String baseUrl, @Nullable String user) {
		this.baseUrl = baseUrl;
		this.user = user;
	}

	/**
	 * A caller with the password {@code <user>-pw}, or an anonymous one.
	 * @param port the application's port
	 * @param user the user; {@code null} for an anonymous caller
	 * @return the caller
	 */
	static MatrixHttp as(int port, @Nullable String user) {
		return new MatrixHttp("http://127.0.0.1:" + port, user);
	}

	@Nullable String user() {
		return this.user;
	}

	/** The {@code Authorization} header of a user whose password is {@code <user>-pw}. */
	static String basic(String user) {
		return "Basic " + Base64.getEncoder().encodeToString((user + ":" + user + "-pw").getBytes(StandardCharsets.UTF_8));
	}

	Reply get(String path) {
		return send(request(path).GET());
	}

	Reply delete(String path) {
		return send(request(path).DELETE());
	}

	Reply post(String path, Object json) {
		return post(path, json, null, null);
	}

	Reply post(String path, Object json, @Nullable String header, @Nullable String value) {
		HttpRequest.Builder request = request(path).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString((json instanceof String text) ? text
					: AgentJson.mapper().writeValueAsString(json)));
		if (header != null && value != null) {
			request.header(header, value);
		}
		return send(request);
	}

	Reply postText(String path, String text) {
		return send(request(path).header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(text)));
	}

	private HttpRequest.Builder request(String path) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.baseUrl + path)).timeout(TIMEOUT);
		if (this.user != null) {
			request.header("Authorization", basic(this.user));
		}
		return request;
	}

	private Reply send(HttpRequest.Builder request) {
		try {
			HttpResponse<String> response = this.client.send(request.build(), HttpResponse.BodyHandlers.ofString());
			return new Reply(response.statusCode(), response.body());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * An answer.
	 * @param status the HTTP status
	 * @param body the body, as text
	 */
	record Reply(int status, String body) {

		@Override
		public String toString() {
			return this.status + " " + ((this.body.length() > 600) ? this.body.substring(0, 600) + "…" : this.body);
		}

	}

}
