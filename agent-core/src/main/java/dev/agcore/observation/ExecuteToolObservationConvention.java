package dev.agcore.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The {@link ObservationConvention} of the observations of tool calls; declare a bean of
 * this type to replace {@link DefaultExecuteToolObservationConvention}.
 */
public interface ExecuteToolObservationConvention extends ObservationConvention<ExecuteToolObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof ExecuteToolObservationContext;
	}

}
