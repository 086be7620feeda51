package dev.agcore.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The {@link ObservationConvention} of the observations of model calls; declare a bean of
 * this type to replace {@link DefaultChatObservationConvention}.
 */
public interface ChatObservationConvention extends ObservationConvention<ChatObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof ChatObservationContext;
	}

}
