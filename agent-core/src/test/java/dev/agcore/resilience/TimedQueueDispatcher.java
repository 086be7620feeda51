package dev.agcore.resilience;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import mockwebserver3.MockResponse;
import mockwebserver3.QueueDispatcher;
import mockwebserver3.RecordedRequest;

/**
 * A {@link QueueDispatcher} that records when each request arrived.
 */
class TimedQueueDispatcher extends QueueDispatcher {

	private final List<Long> arrivals = new CopyOnWriteArrayList<>();

	@Override
	public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
		this.arrivals.add(System.nanoTime());
		return super.dispatch(request);
	}

	/**
	 * Return the milliseconds between the arrival of two requests.
	 * @param first the index of the first request
	 * @param second the index of the second request
	 * @return the gap in milliseconds
	 */
	long gapMillis(int first, int second) {
		return (this.arrivals.get(second) - this.arrivals.get(first)) / 1_000_000;
	}

}
