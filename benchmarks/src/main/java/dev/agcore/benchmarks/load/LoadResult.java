package dev.agcore.benchmarks.load;

import org.jspecify.annotations.Nullable;

/**
 * What one variant did at one concurrency during the measured window.
 *
 * @param variant the variant
 * @param concurrency the number of concurrent callers
 * @param operations operations completed without error in the window
 * @param errors operations failed in the window
 * @param seconds the length of the window
 * @param idealPerSecond operations per second if each took exactly the server's delay
 * per exchange
 * @param p50Nanos the median latency of the successful operations
 * @param p99Nanos the 99th percentile latency
 * @param cpuNanos the process CPU time spent in the window
 * @param threadCpuNanos the CPU time of the Java threads alive at the window's end (the
 * process's without the JVM's GC and JIT compiler threads)
 * @param allocatedBytes bytes allocated in the window by the threads alive at its end
 * @param heapAfterGcBytes heap used after a full GC at the end of the window, with every
 * caller's operation still in flight
 * @param server what the fake server did in the window
 * @param firstError the first error's description, null without errors
 */
public record LoadResult(Variant variant, int concurrency, long operations, long errors, double seconds,
		double idealPerSecond, long p50Nanos, long p99Nanos, long cpuNanos, long threadCpuNanos,
		long allocatedBytes,
		long heapAfterGcBytes, FakeOpenAiServer.Stats server, @Nullable String firstError) {

	/**
	 * Return the operations per second.
	 * @return the throughput
	 */
	public double perSecond() {
		return this.operations / this.seconds;
	}

	/**
	 * Return the throughput as a share of the ideal.
	 * @return the percentage
	 */
	public double percentOfIdeal() {
		return 100 * perSecond() / this.idealPerSecond;
	}

	/**
	 * Return the process CPU time per operation.
	 * @return milliseconds
	 */
	public double cpuMillisPerOperation() {
		return (this.operations > 0) ? this.cpuNanos / 1e6 / this.operations : Double.NaN;
	}

	/**
	 * Return the Java threads' CPU time per operation.
	 * @return milliseconds
	 */
	public double threadCpuMillisPerOperation() {
		return (this.operations > 0) ? this.threadCpuNanos / 1e6 / this.operations : Double.NaN;
	}

	/**
	 * Return the fake server's process CPU time per operation.
	 * @return milliseconds
	 */
	public double serverCpuMillisPerOperation() {
		return (this.operations > 0) ? this.server.cpuNanos() / 1e6 / this.operations : Double.NaN;
	}

	/**
	 * Return the bytes allocated per operation.
	 * @return bytes
	 */
	public double allocatedPerOperation() {
		return (this.operations > 0) ? (double) this.allocatedBytes / this.operations : Double.NaN;
	}

}
