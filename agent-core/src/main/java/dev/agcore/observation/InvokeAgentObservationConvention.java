package dev.agcore.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The {@link ObservationConvention} of the observations of turns; declare a bean of
 * this type to replace {@link DefaultInvokeAgentObservationConvention}.
 */
public interface InvokeAgentObservationConvention extends ObservationConvention<InvokeAgentObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof InvokeAgentObservationContext;
	}

}
