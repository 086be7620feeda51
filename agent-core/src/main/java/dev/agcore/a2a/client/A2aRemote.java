package dev.agcore.a2a.client;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * A remote A2A agent, as configured.
 *
 * @param name the local name, which is the name of the tool that calls it
 * ({@code ^[a-zA-Z0-9_-]{1,64}$})
 * @param url the remote's base URL (its card is at
 * {@code {url}/.well-known/agent-card.json}) or the URL of its Agent Card (a path ending
 * in {@code .json})
 * @param headers sent with every request to the remote, such as
 * {@code Authorization: Bearer ...}; never to another origin than {@code url}'s
 * @param timeout how long a call may take, from sending the task to the remote's answer
 * @param description what the model is told the remote does, instead of the card's
 * description and skills; or {@code null}
 */
public record A2aRemote(String name, URI url, Map<String, String> headers, Duration timeout,
		@Nullable String description) {

	/** How long a call may take unless told otherwise. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

	/** Where the Agent Card is, below a base URL. */
	public static final String AGENT_CARD_PATH = "/.well-known/agent-card.json";

	private static final Pattern TOOL_NAME = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");

	public A2aRemote {
		Objects.requireNonNull(name, "'name' must not be null");
		Objects.requireNonNull(url, "'url' must not be null");
		Objects.requireNonNull(timeout, "'timeout' must not be null");
		if (!TOOL_NAME.matcher(name).matches()) {
			throw new IllegalArgumentException(
					"the name '" + name + "' is not a tool name: use letters, digits, '_' and '-' (at most 64)");
		}
		String scheme = (url.getScheme() != null) ? url.getScheme().toLowerCase(Locale.ROOT) : "";
		if (!url.isAbsolute() || !(scheme.equals("http") || scheme.equals("https")) || url.getHost() == null) {
			throw new IllegalArgumentException("the url '" + url + "' is not an absolute http or https URL");
		}
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("the timeout must be positive, was " + timeout);
		}
		headers = Map.copyOf(headers);
		description = (description != null && !description.isBlank()) ? description.strip() : null;
	}

	/**
	 * Return a remote with the defaults: no headers, a timeout of two minutes and the
	 * card's description.
	 * @param name the local name
	 * @param url the base URL or the card's URL
	 * @return the remote
	 */
	public static A2aRemote of(String name, URI url) {
		return new A2aRemote(name, url, Map.of(), DEFAULT_TIMEOUT, null);
	}

	/**
	 * Return where the remote's Agent Card is: the URL itself when its path ends in
	 * {@code .json}, else {@value #AGENT_CARD_PATH} below it.
	 * @return the card's URL
	 */
	public URI cardUrl() {
		String path = (this.url.getPath() != null) ? this.url.getPath() : "";
		if (path.endsWith(".json")) {
			return this.url;
		}
		String base = this.url.toString();
		int query = base.indexOf('?');
		if (query >= 0) {
			base = base.substring(0, query);
		}
		while (base.endsWith("/")) {
			base = base.substring(0, base.length() - 1);
		}
		return URI.create(base + AGENT_CARD_PATH);
	}

	@Override
	public String toString() {
		// the headers carry credentials
		return "A2aRemote[name=" + this.name + ", url=" + this.url + ", headers=" + this.headers.keySet() + ", timeout="
				+ this.timeout + "]";
	}

}
