package dev.agcore.docs.chains;

import dev.agcore.chain.ChainRegistry;
import dev.agcore.chain.Runnable;
import dev.agcore.docs.chains.Forecasts.Weather;
import dev.agcore.observation.MicrometerAgentMetrics;
import io.micrometer.core.instrument.MeterRegistry;

/** A registry of chains without Spring Boot, from docs/chains.md. */
class RegisteredChains {

	static ChainRegistry registry(MeterRegistry meterRegistry, Runnable<String, String> prompt,
			Runnable<String, String> model, Runnable<String, Weather> parse) {
		// tag::registry[]
		ChainRegistry chains = new ChainRegistry(new MicrometerAgentMetrics(meterRegistry));
		Runnable<String, Weather> forecast = chains.register("forecast", prompt.pipe(model).pipe(parse));
		// end::registry[]
		return chains;
	}

}
