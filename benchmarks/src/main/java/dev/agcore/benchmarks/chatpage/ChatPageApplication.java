package dev.agcore.benchmarks.chatpage;

import java.time.Duration;

import dev.agcore.model.ChatModel;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.http.client.ReactorResourceFactory;

/**
 * The application the chat page is measured against: the starter's auto-configuration
 * with the HTTP endpoint and the page on, and one agent on a {@link PacedAnswerModel}.
 * Nothing is scanned: the benchmarks' other classes are no beans.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
class ChatPageApplication {

	/** The agent the page talks to. */
	static final String AGENT = "bench";

	/**
	 * Event loops of the application's own, not Reactor Netty's global ones: closing the
	 * application would dispose those under whatever else in the JVM uses them (the load
	 * harness, in the benchmarks' tests).
	 * @return the resources
	 */
	@Bean
	ReactorResourceFactory reactorResourceFactory() {
		ReactorResourceFactory factory = new ReactorResourceFactory();
		factory.setUseGlobalResources(false);
		return factory;
	}

	@Bean
	ServerTimes serverTimes() {
		return new ServerTimes();
	}

	@Bean
	ChatModel pacedAnswerModel(Environment environment, ServerTimes serverTimes) {
		return new PacedAnswerModel(environment.getProperty("bench.first-chunk-delay", Duration.class, Duration.ZERO),
				environment.getProperty("bench.chunk-interval", Duration.class, Duration.ofMillis(10)),
				environment.getProperty("bench.chunks", Integer.class, 20), serverTimes::modelAsked);
	}

}
