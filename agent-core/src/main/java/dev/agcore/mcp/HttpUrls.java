package dev.agcore.mcp;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Checks and splits the URLs of HTTP MCP servers: the transports take a root URL
 * ({@code scheme://host:port}) and an endpoint path separately.
 */
final class HttpUrls {

	private HttpUrls() {
	}

	/** The URL's scheme and authority; fails unless it is an absolute http(s) URL with a host. */
	static URI root(URI url) {
		Objects.requireNonNull(url, "'url' must not be null");
		String scheme = (url.getScheme() != null) ? url.getScheme().toLowerCase(Locale.ROOT) : "";
		if (!scheme.equals("http") && !scheme.equals("https")) {
			throw new IllegalArgumentException("URL '" + url + "' must start with http:// or https://");
		}
		if (url.getHost() == null || url.getHost().isEmpty()) {
			throw new IllegalArgumentException("URL '" + url + "' has no host");
		}
		return URI.create(scheme + "://" + url.getRawAuthority());
	}

	static String endpoint(String endpoint) {
		Objects.requireNonNull(endpoint, "'endpoint' must not be null");
		if (!endpoint.startsWith("/")) {
			throw new IllegalArgumentException("endpoint '" + endpoint + "' must start with /");
		}
		return endpoint;
	}

	/** The URL's path and query, or the default when it has no path. */
	static String pathOr(URI url, String otherwise) {
		String path = url.getRawPath();
		if (path == null || path.isEmpty() || path.equals("/")) {
			return otherwise;
		}
		return (url.getRawQuery() != null) ? path + "?" + url.getRawQuery() : path;
	}

	static void positive(Duration duration, String name) {
		Objects.requireNonNull(duration, "'" + name + "' must not be null");
		if (duration.isNegative() || duration.isZero()) {
			throw new IllegalArgumentException("'" + name + "' must be positive, was " + duration);
		}
	}

}
