package dev.agcore.mcp;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Follows the {@code nextCursor} of a paginated MCP listing to its end, at most
 * {@value #MAX_PAGES} pages: a server that keeps answering with a cursor, or with one it
 * gave before, must not hold a connection in a loop.
 */
final class McpPages {

	static final int MAX_PAGES = 100;

	private McpPages() {
	}

	/**
	 * Collect every item of a listing.
	 * @param <P> the page type
	 * @param <T> the item type
	 * @param what what is listed, for the error message
	 * @param page requests the page after a cursor ({@code null} for the first)
	 * @param items the items of a page
	 * @param next the cursor of the page after, or {@code null} on the last page
	 * @return all items in order
	 */
	static <P, T> Mono<List<T>> collect(String what, Function<@Nullable String, Mono<P>> page,
			Function<P, @Nullable List<T>> items, Function<P, @Nullable String> next) {
		return Mono.defer(() -> collect(what, page, items, next, null, new ArrayList<>(), new HashSet<>()));
	}

	private static <P, T> Mono<List<T>> collect(String what, Function<@Nullable String, Mono<P>> page,
			Function<P, @Nullable List<T>> items, Function<P, @Nullable String> next, @Nullable String cursor,
			List<T> all, Set<String> seen) {
		return page.apply(cursor).flatMap((result) -> {
			List<T> these = items.apply(result);
			if (these != null) {
				all.addAll(these);
			}
			String after = next.apply(result);
			if (after == null || after.isEmpty()) {
				return Mono.just(List.copyOf(all));
			}
			if (!seen.add(after) || seen.size() >= MAX_PAGES) {
				return Mono.error(new McpException("Listing " + what + " did not end after " + seen.size()
						+ " pages (cursor '" + after + "')"));
			}
			return collect(what, page, items, next, after, all, seen);
		});
	}

}
