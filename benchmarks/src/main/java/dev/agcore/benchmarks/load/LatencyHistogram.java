package dev.agcore.benchmarks.load;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A fixed-size, lock-free latency histogram: log-linear buckets of nanoseconds, 64 per
 * power of two, so a percentile is within about 1.6 % of the true value. Its memory does
 * not grow with the number of values recorded.
 */
final class LatencyHistogram {

	private static final int SUB_BITS = 6;

	private static final int SUB = 1 << SUB_BITS;

	private final AtomicLongArray counts = new AtomicLongArray(index(Long.MAX_VALUE) + 1);

	void record(long nanos) {
		this.counts.incrementAndGet(index(Math.max(1, nanos)));
	}

	/**
	 * Return a percentile.
	 * @param percentile between 0 and 100
	 * @return the value in nanoseconds (the middle of its bucket), 0 when empty
	 */
	long percentile(double percentile) {
		long total = 0;
		for (int i = 0; i < this.counts.length(); i++) {
			total += this.counts.get(i);
		}
		if (total == 0) {
			return 0;
		}
		long rank = Math.max(1, (long) Math.ceil(total * percentile / 100));
		long seen = 0;
		for (int i = 0; i < this.counts.length(); i++) {
			seen += this.counts.get(i);
			if (seen >= rank) {
				long low = lowest(i);
				long high = lowest(i + 1);
				return (high > low) ? low + (high - low) / 2 : low;
			}
		}
		return lowest(this.counts.length() - 1);
	}

	// values below 2 * SUB have a bucket each; above, SUB buckets per power of two
	static int index(long value) {
		if (value < 2 * SUB) {
			return (int) value;
		}
		int shift = (63 - Long.numberOfLeadingZeros(value)) - SUB_BITS;
		return shift * SUB + (int) (value >>> shift);
	}

	static long lowest(int index) {
		if (index < 2 * SUB) {
			return index;
		}
		int shift = (index >>> SUB_BITS) - 1;
		return ((long) (index - shift * SUB)) << shift;
	}

}
