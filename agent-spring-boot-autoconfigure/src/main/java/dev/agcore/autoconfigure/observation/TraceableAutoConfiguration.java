package dev.agcore.autoconfigure.observation;

import dev.agcore.observation.Traceable;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for {@link Traceable @Traceable}:
 * when there is an {@link ObservationRegistry}, every call of a {@code @Traceable} bean
 * method is recorded as an observation.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean(ObservationRegistry.class)
public final class TraceableAutoConfiguration {

	// static, and the registry looked up on first use: a post-processor must not create beans early
	@Bean
	static TraceableBeanPostProcessor traceableBeanPostProcessor(
			ObjectProvider<ObservationRegistry> observationRegistry) {
		return new TraceableBeanPostProcessor(observationRegistry);
	}

}
