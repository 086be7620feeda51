package dev.agcore.mcp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * The connection to one MCP server: its status, and its resources and prompts. It
 * reconnects on its own with backoff (see {@link McpServerSettings}); every request
 * waits for a connection being re-established, within the request timeout, and fails
 * with an {@link McpException} naming the server otherwise. Its tools reach agents
 * through the {@link McpClientRegistry}.
 * <p>
 * The methods return this package's own records, so callers need no SDK types. They
 * never block; subscribe on any thread. Listings follow every page of the server.
 *
 * @since 0.1.0
 */
public final class McpConnection {

	private final McpServerSettings settings;

	private final SessionKeeper keeper;

	private final McpToolCall toolCall;

	McpConnection(McpServerSettings settings, Function<McpServerSettings, McpClientTransport> transports,
			Runnable toolsChanged) {
		this.settings = Objects.requireNonNull(settings, "'settings' must not be null");
		this.keeper = new SessionKeeper(settings, transports, toolsChanged);
		this.toolCall = new McpToolCall(this.keeper, settings);
	}

	/**
	 * Return the server's configured name.
	 * @return the name
	 */
	public String name() {
		return this.settings.name();
	}

	public McpServerSettings settings() {
		return this.settings;
	}

	/**
	 * Return where the connection stands now.
	 * @return the status
	 */
	public McpServerStatus status() {
		return this.keeper.status();
	}

	/**
	 * Start connecting, once.
	 * @return completes when connected the first time; fails, naming the server and why,
	 * when the first attempt fails, while attempts go on in the background
	 */
	public Mono<Void> start() {
		return this.keeper.start();
	}

	/**
	 * List the server's resources.
	 * @return the resources, every page; none when the server declared no resources
	 * capability
	 */
	public Mono<List<McpResource>> listResources() {
		return request("listing resources", this::listResources)
			.map((resources) -> resources.stream().map(McpCatalog::resource).toList());
	}

	/**
	 * Read a resource.
	 * @param uri the resource's URI
	 * @return what it holds, possibly in several parts; an {@link McpException} when the
	 * server declared no resources capability
	 */
	public Mono<List<McpResourceContents>> readResource(String uri) {
		Objects.requireNonNull(uri, "'uri' must not be null");
		return read(uri).map((contents) -> contents.stream().map(McpCatalog::contents).toList());
	}

	/**
	 * Read resources as text to add to a turn as context, such as the start of a user
	 * message: each part under a line {@code [resource <uri>]}, binary parts as a note
	 * of their type and size, parts separated by blank lines; cut at a million characters.
	 * @param uris the resources' URIs
	 * @return the text, in the order of the URIs
	 */
	public Mono<String> readResourcesAsText(List<String> uris) {
		return Flux.fromIterable(uris)
			.concatMap(this::read)
			.collectList()
			.map((parts) -> {
				List<McpSchema.ResourceContents> all = new ArrayList<>();
				parts.forEach(all::addAll);
				return McpCatalog.asText(all);
			});
	}

	/**
	 * List the server's prompts.
	 * @return the prompts, every page
	 */
	public Mono<List<McpPrompt>> listPrompts() {
		return request("listing prompts",
				(session) -> McpPages.collect("the prompts of MCP server '" + name() + "'",
						(cursor) -> session.client().listPrompts(cursor), McpSchema.ListPromptsResult::prompts,
						McpSchema.ListPromptsResult::nextCursor))
			.map((prompts) -> prompts.stream().map(McpCatalog::prompt).toList());
	}

	/**
	 * Get a prompt filled in with arguments.
	 * @param name the prompt's name
	 * @param arguments its arguments
	 * @return the prompt's messages
	 */
	public Mono<McpPromptResult> getPrompt(String name, Map<String, String> arguments) {
		Objects.requireNonNull(name, "'name' must not be null");
		Map<String, Object> values = new LinkedHashMap<>(arguments);
		return request("getting prompt '" + name + "'",
				(session) -> session.client().getPrompt(new McpSchema.GetPromptRequest(name, values)))
			.map(McpCatalog::prompt);
	}

	/**
	 * Get a prompt as {@link #getPrompt} does, fetched once per connection: the same
	 * prompt again is answered from a cache until the server reconnects or announces a
	 * changed prompt list.
	 * @param name the prompt's name
	 * @param arguments its arguments
	 * @return the prompt's messages
	 */
	public Mono<McpPromptResult> getCachedPrompt(String name, Map<String, String> arguments) {
		Objects.requireNonNull(name, "'name' must not be null");
		Map<String, Object> values = new LinkedHashMap<>(arguments);
		return request("getting prompt '" + name + "'", (session) -> session.prompt(name, values))
			.map(McpCatalog::prompt);
	}

	/**
	 * Close the connection, for good: for stdio the server process is stopped (as the
	 * SDK does: SIGTERM, waited for at most 5 seconds). Idempotent.
	 * @return completes when closed
	 */
	public Mono<Void> close() {
		return this.keeper.close();
	}

	List<McpSchema.Tool> serverTools() {
		return this.keeper.tools();
	}

	McpToolCall toolCall() {
		return this.toolCall;
	}

	private Mono<List<McpSchema.Resource>> listResources(McpSession session) {
		if (!session.offersResources()) {
			return Mono.just(List.of());
		}
		return McpPages.collect("the resources of MCP server '" + name() + "'",
				(cursor) -> session.client().listResources(cursor), McpSchema.ListResourcesResult::resources,
				McpSchema.ListResourcesResult::nextCursor);
	}

	private Mono<List<McpSchema.ResourceContents>> read(String uri) {
		return request("reading resource '" + uri + "'", (session) -> {
			if (!session.offersResources()) {
				// the SDK would refuse with an IllegalStateException, taken for a broken session
				return Mono.<McpSchema.ReadResourceResult>error(new McpException(
						"MCP server '" + name() + "' offers no resources (it declared no resources capability)"));
			}
			return session.client().readResource(new McpSchema.ReadResourceRequest(uri));
		}).map((result) -> (result.contents() != null) ? result.contents() : List.of());
	}

	private <T> Mono<T> request(String action, Function<McpSession, Mono<T>> request) {
		Duration timeout = this.settings.requestTimeout();
		return this.keeper.session(timeout)
			.flatMap((session) -> request.apply(session).onErrorMap((ex) -> this.keeper.failed(session, ex, action)))
			.retryWhen(Retry.max(1)
				.filter(SessionKeeper.NotSent.class::isInstance)
				.onRetryExhaustedThrow((spec, signal) -> signal.failure()));
	}

	@Override
	public String toString() {
		return "McpConnection[" + name() + ", " + this.settings.transport() + "]";
	}

}
