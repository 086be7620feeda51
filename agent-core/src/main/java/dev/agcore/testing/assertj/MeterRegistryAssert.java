package dev.agcore.testing.assertj;

import java.util.Collection;
import java.util.List;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on the meters in a registry, such as the ones a turn recorded.
 */
public final class MeterRegistryAssert extends AbstractAssert<MeterRegistryAssert, MeterRegistry> {

	MeterRegistryAssert(MeterRegistry actual) {
		super(actual, MeterRegistryAssert.class);
	}

	/**
	 * Verify that the registry has a meter of the given name, of any type.
	 * @param name the meter name
	 * @return an assertion on the meters of that name
	 */
	public MetersAssert hasMeter(String name) {
		return meters(name, Meter.class, "meter");
	}

	/**
	 * Verify that the registry has a counter of the given name.
	 * @param name the counter name
	 * @return an assertion on the counters of that name
	 */
	public MetersAssert hasCounter(String name) {
		return meters(name, Counter.class, "counter");
	}

	/**
	 * Verify that the registry has a timer of the given name.
	 * @param name the timer name
	 * @return an assertion on the timers of that name
	 */
	public MetersAssert hasTimer(String name) {
		return meters(name, Timer.class, "timer");
	}

	/**
	 * Verify that the registry has no meter of the given name.
	 * @param name the meter name
	 * @return this
	 */
	public MeterRegistryAssert doesNotHaveMeter(String name) {
		isNotNull();
		Collection<Meter> meters = this.actual.find(name).meters();
		if (!meters.isEmpty()) {
			failWithMessage("Expected no meter named '%s' but found %s", name, MetersAssert.describe(meters));
		}
		return this;
	}

	private MetersAssert meters(String name, Class<? extends Meter> type, String kind) {
		isNotNull();
		List<Meter> all = List.copyOf(this.actual.find(name).meters());
		List<Meter> typed = all.stream().filter(type::isInstance).toList();
		if (typed.isEmpty()) {
			List<String> names = this.actual.getMeters().stream().map((meter) -> meter.getId().getName()).distinct()
				.sorted().toList();
			failWithMessage("Expected a %s named '%s' but %s; the registry has%n  %s", kind, name,
					all.isEmpty() ? "there is none" : "found " + MetersAssert.describe(all), names);
		}
		return new MetersAssert(name, typed);
	}

}
