package dev.agcore.docs.observability;

import dev.agcore.observation.ChatObservationContext;
import dev.agcore.observation.ChatObservationConvention;
import dev.agcore.observation.DefaultChatObservationConvention;
import io.micrometer.common.KeyValues;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** A convention of one's own, from docs/observability.md. */
@Configuration(proxyBeanMethods = false)
class ObservationConventions {

	// tag::convention[]
	@Bean
	ChatObservationConvention chatObservationConvention() {
		return new DefaultChatObservationConvention() {
			@Override
			public KeyValues getLowCardinalityKeyValues(ChatObservationContext context) {
				return super.getLowCardinalityKeyValues(context).and("team", "support");
			}
		};
	}
	// end::convention[]

}
