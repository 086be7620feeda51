package dev.agcore.autoconfigure.web;

import java.util.function.Consumer;

import org.springframework.boot.test.context.assertj.AssertableReactiveWebApplicationContext;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Drives the agent routes of a started context with a {@link WebTestClient}, for the
 * endpoint tests of this package.
 */
final class AgentRoutes {

	private AgentRoutes() {
	}

	/** Run a test against the context's agent routes, once it started. */
	static ContextConsumer<AssertableReactiveWebApplicationContext> withClient(Consumer<WebTestClient> test) {
		return (context) -> {
			assertThat(context).hasNotFailed();
			RouterFunction<?> router = context.getBean("agentRouterFunction", RouterFunction.class);
			test.accept(WebTestClient.bindToRouterFunction(router).build());
		};
	}

}
