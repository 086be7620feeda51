package dev.agcore.benchmarks.load;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

import com.sun.management.OperatingSystemMXBean;
import com.sun.management.ThreadMXBean;

/**
 * A closed loop of a fixed number of callers: each starts its next operation when its
 * last one ends, so at most {@code concurrency} operations are ever in flight and nothing
 * queues without bound. A caller whose operation failed waits 10 ms before the next, so
 * that a failing variant does not spin. The loop runs a warm-up, then a measured window;
 * only operations that end inside the window count.
 */
final class ClosedLoopDriver {

	private static final Executor AFTER_ERROR = CompletableFuture.delayedExecutor(10, TimeUnit.MILLISECONDS);

	private final Operations operations;

	private final int concurrency;

	private final LatencyHistogram latencies = new LatencyHistogram();

	private final LongAdder completed = new LongAdder();

	private final LongAdder errors = new LongAdder();

	private final AtomicReference<Throwable> firstError = new AtomicReference<>();

	private final CountDownLatch stopped;

	private volatile long windowStart = Long.MAX_VALUE;

	private volatile long windowEnd = Long.MAX_VALUE;

	private volatile boolean stopping;

	private ClosedLoopDriver(Operations operations, int concurrency) {
		this.operations = operations;
		this.concurrency = concurrency;
		this.stopped = new CountDownLatch(concurrency);
	}

	/**
	 * Run operations in a closed loop and measure them.
	 * @param variant the variant the operations belong to
	 * @param operations the operations
	 * @param concurrency how many callers
	 * @param delay the server's delay, for the ideal throughput
	 * @param warmup how long to run before measuring
	 * @param duration how long to measure
	 * @param server reads the fake server's counters
	 * @return the result
	 * @throws InterruptedException if interrupted while waiting
	 */
	static LoadResult run(Variant variant, Operations operations, int concurrency, Duration delay, Duration warmup,
			Duration duration, Supplier<FakeOpenAiServer.Stats> server) throws InterruptedException {
		return new ClosedLoopDriver(operations, concurrency).run(variant, delay, warmup, duration, server);
	}

	private LoadResult run(Variant variant, Duration delay, Duration warmup, Duration duration,
			Supplier<FakeOpenAiServer.Stats> server) throws InterruptedException {
		OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
		for (int slot = 0; slot < this.concurrency; slot++) {
			start(slot);
		}
		Thread.sleep(warmup.toMillis());
		FakeOpenAiServer.Stats serverBefore = server.get();
		long cpuBefore = os.getProcessCpuTime();
		ThreadCounters threadsBefore = ThreadCounters.now();
		long start = System.nanoTime();
		this.windowEnd = start + duration.toNanos();
		this.windowStart = start;
		sleepUntil(this.windowEnd);
		long cpu = os.getProcessCpuTime() - cpuBefore;
		long[] threads = ThreadCounters.now().since(threadsBefore);
		FakeOpenAiServer.Stats serverStats = server.get().minus(serverBefore);
		long operations = this.completed.sum();
		long errors = this.errors.sum();
		// a full GC with every caller's operation in flight: what the load holds live
		System.gc();
		long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
		this.stopping = true;
		long drainMillis = Math.max(30_000, delay.toMillis() * 10);
		if (!this.stopped.await(drainMillis, TimeUnit.MILLISECONDS)) {
			throw new IllegalStateException(variant.id() + " at " + this.concurrency + ": "
					+ this.stopped.getCount() + " operations still in flight " + drainMillis + " ms after the end");
		}
		double ideal = this.concurrency * 1e9 / (delay.toNanos() * (double) variant.exchanges());
		Throwable error = this.firstError.get();
		return new LoadResult(variant, this.concurrency, operations, errors, duration.toNanos() / 1e9, ideal,
				this.latencies.percentile(50), this.latencies.percentile(99), cpu, threads[1], threads[0], heap,
				serverStats,
				(error != null) ? describe(error) : null);
	}

	private void start(int slot) {
		long begin = System.nanoTime();
		CompletableFuture<?> operation;
		try {
			operation = this.operations.start(slot);
		}
		catch (RuntimeException ex) {
			operation = CompletableFuture.failedFuture(ex);
		}
		operation.whenComplete((result, error) -> ended(slot, begin, error));
	}

	private void ended(int slot, long begin, Throwable error) {
		long end = System.nanoTime();
		if (end >= this.windowStart && end < this.windowEnd) {
			if (error == null) {
				this.latencies.record(end - begin);
				this.completed.increment();
			}
			else {
				this.errors.increment();
				this.firstError.compareAndSet(null, error);
			}
		}
		if (this.stopping) {
			this.stopped.countDown();
		}
		else if (error != null) {
			AFTER_ERROR.execute(() -> start(slot));
		}
		else {
			start(slot);
		}
	}

	private static void sleepUntil(long nanoTime) throws InterruptedException {
		long left;
		while ((left = nanoTime - System.nanoTime()) > 0) {
			TimeUnit.NANOSECONDS.sleep(left);
		}
	}

	private static String describe(Throwable error) {
		Throwable cause = error;
		while (cause.getCause() != null && cause.getCause() != cause) {
			cause = cause.getCause();
		}
		return cause.getClass().getSimpleName() + ": " + cause.getMessage();
	}

	/**
	 * Allocation and CPU time of the live Java threads, by thread. A thread that ends
	 * inside the window takes its counts with it; the loop's threads (event loops,
	 * bounded-elastic workers, the JDK client's) live through it. The JVM's own threads
	 * (GC, JIT compiler) are not Java threads and are not counted here.
	 */
	record ThreadCounters(Map<Long, long[]> byThread) {

		static ThreadCounters now() {
			ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
			long[] ids = threads.getAllThreadIds();
			long[] allocated = threads.getThreadAllocatedBytes(ids);
			long[] cpu = threads.getThreadCpuTime(ids);
			Map<Long, long[]> byThread = new HashMap<>(ids.length * 2);
			for (int i = 0; i < ids.length; i++) {
				if (allocated[i] >= 0 && cpu[i] >= 0) {
					byThread.put(ids[i], new long[] { allocated[i], cpu[i] });
				}
			}
			return new ThreadCounters(byThread);
		}

		/**
		 * Return the bytes allocated and the CPU time spent since an earlier snapshot.
		 * @param earlier the earlier snapshot
		 * @return bytes, then nanoseconds
		 */
		long[] since(ThreadCounters earlier) {
			long[] total = new long[2];
			for (Map.Entry<Long, long[]> thread : this.byThread.entrySet()) {
				long[] before = earlier.byThread.getOrDefault(thread.getKey(), new long[2]);
				total[0] += thread.getValue()[0] - before[0];
				total[1] += thread.getValue()[1] - before[1];
			}
			return total;
		}

	}

}
