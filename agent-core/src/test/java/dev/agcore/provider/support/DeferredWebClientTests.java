package dev.agcore.provider.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DeferredWebClient}.
 */
class DeferredWebClientTests {

	@Test
	void theSourceIsAskedOnFirstUseOnlyOnceAndItsBuilderIsClonedNotBuilt() {
		AtomicInteger asked = new AtomicInteger();
		WebClient.Builder shared = WebClient.builder();
		DeferredWebClient client = DeferredWebClient.of(null, () -> {
			asked.incrementAndGet();
			return shared;
		});
		assertThat(asked).hasValue(0);
		List<CompletableFuture<WebClient>> clients = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			clients.add(CompletableFuture.supplyAsync(client::client));
		}
		List<WebClient> built = clients.stream().map(CompletableFuture::join).toList();
		assertThat(asked).hasValue(1);
		assertThat(built).allSatisfy((webClient) -> assertThat(webClient).isSameAs(built.get(0)));
		// a clone was built: the shared builder's later changes do not reach the client
		shared.defaultHeader("X-Later", "yes");
		assertThat(client.client()).isSameAs(built.get(0));
	}

	@Test
	void aGivenBuilderIsBuiltOnFirstUse() {
		AtomicInteger filtered = new AtomicInteger();
		WebClient.Builder builder = WebClient.builder().filter((request, next) -> {
			filtered.incrementAndGet();
			return next.exchange(request);
		});
		DeferredWebClient client = DeferredWebClient.of(builder, null);
		assertThat(client.client()).isSameAs(client.client());
		assertThat(filtered).hasValue(0);
	}

	@Test
	void withoutBuilderOrSourceADefaultClientIsBuilt() {
		assertThat(DeferredWebClient.of(null, null).client()).isNotNull();
	}

}
