package dev.agcore.benchmarks.chatpage;

import java.util.concurrent.atomic.AtomicLong;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * When the server got the latest stream request, when the agent asked the model, and when
 * the first event was written to the connection, on the JVM's clock: the server's share
 * of the time to first token. One stream at a time, as the page sends them.
 */
final class ServerTimes implements WebFilter {

	private final AtomicLong arrived = new AtomicLong();

	private final AtomicLong asked = new AtomicLong();

	private final AtomicLong written = new AtomicLong();

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (exchange.getRequest().getMethod() != HttpMethod.POST
				|| !exchange.getRequest().getPath().value().endsWith("/stream")) {
			return chain.filter(exchange);
		}
		this.arrived.set(System.nanoTime());
		this.asked.set(0);
		this.written.set(0);
		return chain.filter(exchange.mutate().response(new FirstWrite(exchange.getResponse())).build());
	}

	/** The model was asked for a stream. */
	void modelAsked() {
		this.asked.compareAndSet(0, System.nanoTime());
	}

	/**
	 * Return the latest stream's times, in milliseconds from its arrival.
	 * @return the times; a step not reached yet is -1
	 */
	Times latest() {
		long start = this.arrived.get();
		return new Times(since(start, this.asked.get()), since(start, this.written.get()));
	}

	private static double since(long start, long time) {
		return (time == 0) ? -1 : (time - start) / 1e6;
	}

	/**
	 * The server's steps of one stream, in milliseconds from the request's arrival.
	 *
	 * @param modelAsked the agent asked the model: the history loaded, the request built
	 * @param firstWrite the first event was written to the connection
	 */
	record Times(double modelAsked, double firstWrite) {

	}

	// Server-sent events are written with writeAndFlushWith, one publisher per event
	private final class FirstWrite extends ServerHttpResponseDecorator {

		FirstWrite(ServerHttpResponse delegate) {
			super(delegate);
		}

		@Override
		public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
			return super.writeAndFlushWith(Flux.from(body)
				.map((event) -> Flux.from(event)
					.doOnNext((buffer) -> ServerTimes.this.written.compareAndSet(0, System.nanoTime()))));
		}

	}

}
