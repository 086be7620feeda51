package dev.agcore.mcp;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

class McpPagesTests {

	@Test
	void followsCursorsToTheLastPage() {
		StepVerifier.create(McpPages.collect("things",
				(cursor) -> Mono.just((cursor == null) ? new Page(List.of(1, 2), "a")
						: cursor.equals("a") ? new Page(List.of(3), "b") : new Page(List.of(4), null)),
				Page::items, Page::next))
			.assertNext((items) -> assertThat(items).containsExactly(1, 2, 3, 4))
			.expectComplete()
			.verify(Duration.ofSeconds(5));
	}

	@Test
	void aCursorThatComesBackEndsTheListingWithAnError() {
		StepVerifier.create(McpPages.collect("things", (cursor) -> Mono.just(new Page(List.of(1), "same")),
				Page::items, Page::next))
			.expectErrorMessage("Listing things did not end after 1 pages (cursor 'same')")
			.verify(Duration.ofSeconds(5));
	}

	@Test
	void anEndlessListingStopsAfterTheMaximumNumberOfPages() {
		int[] pages = { 0 };
		StepVerifier.create(McpPages.collect("things",
				(cursor) -> Mono.just(new Page(List.of(pages[0]), String.valueOf(++pages[0]))), Page::items, Page::next))
			.expectErrorSatisfies((ex) -> assertThat(ex).hasMessageStartingWith("Listing things did not end after "
					+ McpPages.MAX_PAGES + " pages"))
			.verify(Duration.ofSeconds(5));
	}

	private record Page(List<Integer> items, String next) {
	}

}
