package dev.agcore.docs.prompts;

import java.util.Map;

import dev.agcore.runtime.SystemPromptVariables;
import reactor.core.publisher.Mono;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Values computed for every model call, from docs/prompts.md. */
@Configuration(proxyBeanMethods = false)
class CustomerVariables {

	// tag::variables[]
	@Bean
	SystemPromptVariables customer(CustomerRepository customers) {
		return (context) -> customers.findByUserId(context.userId())       // a Mono: never block here
			.map((customer) -> Map.<String, Object>of("customer", customer));
	}
	// end::variables[]

	/** The application's customers. */
	interface CustomerRepository {

		Mono<String> findByUserId(String userId);

	}

}
