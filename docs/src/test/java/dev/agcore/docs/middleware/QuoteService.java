package dev.agcore.docs.middleware;

import java.math.BigDecimal;

import dev.agcore.observation.Traceable;
import reactor.core.publisher.Mono;

import org.springframework.stereotype.Service;

// tag::traceable[]
@Service
public class QuoteService {

	@Traceable(skip = "apiKey")
	public Mono<Quote> quote(String symbol, String apiKey) {
		return Mono.just(new Quote(symbol, new BigDecimal("101.50")));
	}

}
// end::traceable[]

record Quote(String symbol, BigDecimal price) {
}
