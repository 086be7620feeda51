package dev.agcore.benchmarks.chatpage;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * What {@link ChatPageLatency} measured: each page load and each send, on the page's
 * clock, and their medians and 90th percentiles.
 *
 * @param options what was run
 * @param browserVersion the Chromium version
 * @param loads the page loads, the first with an empty cache
 * @param sends the sends, in order
 */
record ChatPageReport(ChatPageOptions options, String browserVersion, List<Load> loads, List<Send> sends) {

	String header(String loadBefore, String loadAfter) {
		Runtime runtime = Runtime.getRuntime();
		return String.format(Locale.ROOT, """
				Chat page: time to first token, %s
				Chromium %s (headless), JDK %s, %d cores
				load average (1, 5, 15 min) before %s, after %s
				model: first chunk after %d ms, then %d chunks every %d ms
				%d page loads, then %d sends in one session after %d untimed ones
				times: the page's clock (performance.now()), marked by a script injected before the page's own
				""", Instant.now().truncatedTo(ChronoUnit.SECONDS), this.browserVersion,
				System.getProperty("java.runtime.version"), runtime.availableProcessors(), loadBefore, loadAfter,
				this.options.firstChunkDelay().toMillis(), this.options.chunks() - 1,
				this.options.chunkInterval().toMillis(), this.loads.size(), this.sends.size(),
				this.options.warmupSends());
	}

	/**
	 * Format the sends' steps, then the page loads, as Markdown tables of milliseconds.
	 * @return the tables
	 */
	String table() {
		StringBuilder table = new StringBuilder();
		table.append("| from Enter pressed (ms) | median | p90 |\n");
		table.append("| --- | ---: | ---: |\n");
		sendRow(table, "the page's handlers got the key (input queueing)", Send::received);
		sendRow(table, "the page called `fetch` for the stream (its turn in the DOM)", Send::fetched);
		sendRow(table, "the request started (Resource Timing)", Send::requested);
		sendRow(table, "the response's headers arrived", Send::responded);
		sendRow(table, "the first text event was handled (its block in the DOM)", Send::shown);
		sendRow(table, "its text was in the DOM (the next animation frame)", Send::dom);
		sendRow(table, "**first token on screen** (the frame showing it rendered)", Send::frame);
		if (this.sends.stream().allMatch(Send::hasPaint)) {
			sendRow(table, "the frame presented (Element Timing's renderTime)", Send::painted);
		}
		sendRow(table, "the stream ended", Send::ended);
		table.append("\n| on the server, from the request's arrival (ms) | median | p90 |\n");
		table.append("| --- | ---: | ---: |\n");
		serverRow(table, "the agent asked the model (history loaded, request built)", ServerTimes.Times::modelAsked);
		serverRow(table, "the first event was written to the connection", ServerTimes.Times::firstWrite);
		table.append("\n| page load (ms from navigation start) | first (empty cache) | median of the others "
				+ "| p90 of the others |\n");
		table.append("| --- | ---: | ---: | ---: |\n");
		loadRow(table, "first byte of the page", Load::firstByte);
		loadRow(table, "first contentful paint", Load::firstPaint);
		loadRow(table, "DOMContentLoaded", Load::domContentLoaded);
		loadRow(table, "**interactive** (agents listed, one chosen)", Load::interactive);
		loadRow(table, "load event", Load::loaded);
		return table.toString();
	}

	/**
	 * Return the median time from Enter to the first token on screen.
	 * @return milliseconds
	 */
	double medianFirstToken() {
		return percentile(this.sends.stream().mapToDouble((send) -> send.frame() - send.pressed()).toArray(), 50);
	}

	private void sendRow(StringBuilder table, String step, ToDoubleFunction<Send> time) {
		double[] values = this.sends.stream().mapToDouble((send) -> time.applyAsDouble(send) - send.pressed()).toArray();
		table.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f |%n", step, percentile(values, 50),
				percentile(values, 90)));
	}

	private void serverRow(StringBuilder table, String step, ToDoubleFunction<ServerTimes.Times> time) {
		double[] values = this.sends.stream().mapToDouble((send) -> time.applyAsDouble(send.server())).toArray();
		table.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f |%n", step, percentile(values, 50),
				percentile(values, 90)));
	}

	private void loadRow(StringBuilder table, String step, ToDoubleFunction<Load> time) {
		double[] others = this.loads.stream().skip(1).mapToDouble(time).toArray();
		table.append(String.format(Locale.ROOT, "| %s | %.1f | %s | %s |%n", step,
				time.applyAsDouble(this.loads.get(0)), (others.length > 0) ? format(percentile(others, 50)) : "–",
				(others.length > 0) ? format(percentile(others, 90)) : "–"));
	}

	private static String format(double value) {
		return String.format(Locale.ROOT, "%.1f", value);
	}

	/** The nearest-rank percentile: the smallest value that {@code p} % of them do not exceed. */
	static double percentile(double[] values, int p) {
		if (values.length == 0) {
			return Double.NaN;
		}
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int rank = (int) Math.ceil(p / 100.0 * sorted.length);
		return sorted[Math.max(0, rank - 1)];
	}

	/**
	 * One page load, in milliseconds from navigation start.
	 *
	 * @param firstByte the page's first byte
	 * @param firstPaint the first contentful paint, -1 when not reported
	 * @param domContentLoaded the end of DOMContentLoaded
	 * @param loaded the end of the load event
	 * @param interactive the agents listed and one chosen: a message can be sent
	 */
	record Load(double firstByte, double firstPaint, double domContentLoaded, double loaded, double interactive) {

	}

	/**
	 * One send, in milliseconds on the page's clock.
	 *
	 * @param pressed Enter pressed in the message box (the key event's time)
	 * @param received the page's first key handler ran
	 * @param fetched the page called {@code fetch} for the stream
	 * @param requested the stream's request started
	 * @param responded its response's headers arrived
	 * @param shown the first text event was handled: the answer's block is in the DOM
	 * @param dom the block's text is in the DOM
	 * @param frame the frame that shows it was rendered: style, layout and paint done on the
	 * page's thread, what the first token on screen is taken as
	 * @param painted Element Timing's presentation time of that frame, -1 when not
	 * reported: Chromium reports none for an element that is replaced before its frame is
	 * presented, as the page's next rendering of the answer replaces it
	 * @param ended the stream's last byte arrived
	 * @param server the server's steps, on its own clock
	 */
	record Send(double pressed, double received, double fetched, double requested, double responded, double shown,
			double dom, double frame, double painted, double ended, ServerTimes.Times server) {

		boolean hasPaint() {
			return this.painted >= 0;
		}

		/** The steps in milliseconds from Enter, on one line. */
		String summary() {
			return String.format(Locale.ROOT,
					"first token %.1f ms (fetch %.1f, headers %.1f, first event %.1f, in the DOM %.1f), ended %.1f;"
							+ " server: model asked %.1f, first write %.1f",
					this.frame - this.pressed, this.fetched - this.pressed, this.responded - this.pressed,
					this.shown - this.pressed, this.dom - this.pressed, this.ended - this.pressed,
					this.server.modelAsked(), this.server.firstWrite());
		}

	}

}
