package dev.agcore.testing.assertj;

import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on the meters of one name, narrowed by tags: their count, summed over the
 * meters left.
 */
public final class MetersAssert extends AbstractAssert<MetersAssert, List<Meter>> {

	private final String name;

	MetersAssert(String name, List<Meter> actual) {
		super(actual, MetersAssert.class);
		this.name = name;
	}

	/**
	 * Keep the meters that have the given tag, failing if none does.
	 * @param key the tag key
	 * @param value the tag value
	 * @return an assertion on the meters left
	 */
	public MetersAssert withTag(String key, String value) {
		isNotNull();
		List<Meter> tagged = this.actual.stream().filter((meter) -> value.equals(meter.getId().getTag(key))).toList();
		if (tagged.isEmpty()) {
			failWithMessage("Expected a meter '%s' with tag %s=%s but its meters were%n  %s", this.name, key, value,
					describe(this.actual));
		}
		return new MetersAssert(this.name, tagged);
	}

	/**
	 * Verify the count: counters' counts, timers' and distribution summaries' numbers of
	 * recordings, summed over the meters.
	 * @param expected the expected count
	 * @return this
	 */
	public MetersAssert hasCount(long expected) {
		isNotNull();
		double count = this.actual.stream().mapToDouble(MetersAssert::count).sum();
		if (count != expected) {
			failWithMessage("Expected meter '%s' to count %s but it counted %s; its meters were%n  %s", this.name,
					expected, format(count), describe(this.actual));
		}
		return this;
	}

	private static double count(Meter meter) {
		if (meter instanceof Counter counter) {
			return counter.count();
		}
		if (meter instanceof Timer timer) {
			return timer.count();
		}
		if (meter instanceof DistributionSummary summary) {
			return summary.count();
		}
		if (meter instanceof FunctionCounter counter) {
			return counter.count();
		}
		if (meter instanceof FunctionTimer timer) {
			return timer.count();
		}
		return 0;
	}

	private static String format(double count) {
		return (count == Math.rint(count)) ? Long.toString((long) count) : Double.toString(count);
	}

	static String describe(Collection<Meter> meters) {
		return meters.stream()
			.map((meter) -> meter.getId().getName() + meter.getId().getTags().stream()
				.map((Tag tag) -> tag.getKey() + "=" + tag.getValue())
				.collect(Collectors.joining(", ", "{", "}")) + " count=" + format(count(meter)))
			.collect(Collectors.joining(System.lineSeparator() + "  "));
	}

}
