package dev.agcore.benchmarks.load;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import com.sun.management.OperatingSystemMXBean;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * An OpenAI-compatible chat completions server for load tests, on the loopback interface
 * only. Every answer waits the configured delay first, as a model would; the server
 * itself does almost nothing per request (it never parses the request, it searches its
 * bytes):
 * <ul>
 * <li>a request with {@code "stream":true} gets an event stream of
 * {@value #STREAM_CHUNKS} content chunks, each flushed on its own, the last with
 * {@code finish_reason}, then {@code [DONE]};</li>
 * <li>a request whose text contains {@link #TOOL_MARKER} and no tool result yet gets one
 * call of the {@code get_weather} tool;</li>
 * <li>every other request gets a short text answer.</li>
 * </ul>
 * {@code GET /last-request} returns the body of the last chat request, so that a raw
 * client can send exactly the bytes the framework sends; {@code GET /stats} returns its
 * counters ({@link Stats}). Run {@link #main} to start it in
 * its own process: it prints {@code port=<port>} and serves until its input closes.
 */
public final class FakeOpenAiServer implements AutoCloseable {

	/** What a user message carries to make the server ask for a tool. */
	public static final String TOOL_MARKER = "[[use-tool]]";

	/** How many content chunks a streamed answer has. */
	public static final int STREAM_CHUNKS = 50;

	/** The text of a non-streamed answer. */
	public static final String ANSWER = "It is 21 degrees and sunny in Paris.";

	private static final byte[] STREAM_FLAG = "\"stream\":true".getBytes(StandardCharsets.UTF_8);

	private static final byte[] MARKER = TOOL_MARKER.getBytes(StandardCharsets.UTF_8);

	private static final byte[] TOOL_RESULT = "\"role\":\"tool\"".getBytes(StandardCharsets.UTF_8);

	private static final byte[] TEXT_ANSWER = json("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,"
			+ "\"model\":\"fake\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"" + ANSWER
			+ "\"},\"finish_reason\":\"stop\"}],"
			+ "\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":10,\"total_tokens\":30}}");

	private static final byte[] TOOL_ANSWER = json("{\"id\":\"chatcmpl-2\",\"object\":\"chat.completion\",\"created\":1,"
			+ "\"model\":\"fake\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":null,"
			+ "\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\","
			+ "\"arguments\":\"{\\\"city\\\":\\\"Paris\\\",\\\"unit\\\":\\\"CELSIUS\\\"}\"}}]},"
			+ "\"finish_reason\":\"tool_calls\"}],"
			+ "\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":10,\"total_tokens\":30}}");

	private static final List<byte[]> STREAM = stream();

	private final DisposableServer server;

	private final Duration delay;

	private final AtomicReference<byte[]> lastRequest = new AtomicReference<>(new byte[0]);

	private final LongAdder requests = new LongAdder();

	private final LongAdder connections = new LongAdder();

	private FakeOpenAiServer(Duration delay, int port) {
		this.delay = delay;
		this.server = HttpServer.create()
			.host("127.0.0.1")
			.port(port)
			.doOnChannelInit((observer, channel, remoteAddress) -> this.connections.increment())
			.route((routes) -> routes.post("/v1/chat/completions", this::chat)
				.get("/last-request", (request, response) -> response.sendByteArray(Mono.just(this.lastRequest.get())))
				.get("/stats", (request, response) -> response.sendString(Mono.fromSupplier(() -> stats().format()))))
			.bindNow();
	}

	/**
	 * Start a server on a free loopback port.
	 * @param delay how long every answer waits before its first byte
	 * @return the running server
	 */
	public static FakeOpenAiServer start(Duration delay) {
		return new FakeOpenAiServer(delay, 0);
	}

	/**
	 * Return the base URL of the API, {@code http://127.0.0.1:<port>/v1}.
	 * @return the base URL
	 */
	public String baseUrl() {
		return baseUrl(this.server.port());
	}

	static String baseUrl(int port) {
		return "http://127.0.0.1:" + port + "/v1";
	}

	/**
	 * Return how many chat requests the server received.
	 * @return the count
	 */
	public long requests() {
		return this.requests.sum();
	}

	/**
	 * Return what the server did so far.
	 * @return the counters
	 */
	public Stats stats() {
		OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
		return new Stats(this.requests.sum(), this.connections.sum(), os.getProcessCpuTime());
	}

	@Override
	public void close() {
		this.server.disposeNow();
	}

	private Publisher<Void> chat(HttpServerRequest request, HttpServerResponse response) {
		return request.receive().aggregate().asByteArray().flatMap((body) -> {
			this.requests.increment();
			this.lastRequest.lazySet(body);
			if (contains(body, STREAM_FLAG)) {
				Flux<ByteBuf> events = Flux.fromIterable(STREAM).map(Unpooled::wrappedBuffer);
				return response.status(HttpResponseStatus.OK)
					.header(HttpHeaderNames.CONTENT_TYPE, "text/event-stream")
					.send(events.delaySubscription(this.delay), (buffer) -> true)
					.then();
			}
			byte[] answer = (contains(body, MARKER) && !contains(body, TOOL_RESULT)) ? TOOL_ANSWER : TEXT_ANSWER;
			return response.status(HttpResponseStatus.OK)
				.header(HttpHeaderNames.CONTENT_TYPE, "application/json")
				.header(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(answer.length))
				.sendByteArray(Mono.delay(this.delay).thenReturn(answer))
				.then();
		});
	}

	/**
	 * What a server did since it started.
	 *
	 * @param requests chat requests received
	 * @param connections connections accepted
	 * @param cpuNanos the CPU time of the server's process (the whole JVM: when the server
	 * runs in the harness's JVM, the harness's too)
	 */
	public record Stats(long requests, long connections, long cpuNanos) {

		String format() {
			return "requests=" + this.requests + " connections=" + this.connections + " cpu=" + this.cpuNanos;
		}

		static Stats parse(String text) {
			long[] values = new long[3];
			for (String field : text.trim().split(" ")) {
				String[] pair = field.split("=", 2);
				int index = switch (pair[0]) {
					case "requests" -> 0;
					case "connections" -> 1;
					case "cpu" -> 2;
					default -> throw new IllegalArgumentException("Unexpected server stats '" + text + "'");
				};
				values[index] = Long.parseLong(pair[1]);
			}
			return new Stats(values[0], values[1], values[2]);
		}

		Stats minus(Stats earlier) {
			return new Stats(this.requests - earlier.requests, this.connections - earlier.connections,
					this.cpuNanos - earlier.cpuNanos);
		}

	}

	static boolean contains(byte[] bytes, byte[] part) {
		int last = bytes.length - part.length;
		outer: for (int i = 0; i <= last; i++) {
			for (int j = 0; j < part.length; j++) {
				if (bytes[i + j] != part[j]) {
					continue outer;
				}
			}
			return true;
		}
		return false;
	}

	private static List<byte[]> stream() {
		List<byte[]> events = new ArrayList<>(STREAM_CHUNKS + 1);
		for (int i = 0; i < STREAM_CHUNKS; i++) {
			boolean last = i == STREAM_CHUNKS - 1;
			String delta = (i == 0) ? "{\"role\":\"assistant\",\"content\":\"tok" + i + " \"}"
					: "{\"content\":\"tok" + i + " \"}";
			String usage = last ? ",\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":50,\"total_tokens\":70}" : "";
			events.add(json("data: {\"id\":\"chatcmpl-3\",\"object\":\"chat.completion.chunk\",\"created\":1,"
					+ "\"model\":\"fake\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":"
					+ (last ? "\"stop\"" : "null") + "}]" + usage + "}\n\n"));
		}
		events.add(json("data: [DONE]\n\n"));
		return List.copyOf(events);
	}

	private static byte[] json(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Serve in this process until standard input closes.
	 * @param args {@code --delay 100ms}
	 * @throws InterruptedException if interrupted while serving
	 */
	public static void main(String[] args) throws InterruptedException {
		Duration delay = Duration.ofMillis(100);
		for (int i = 0; i + 1 < args.length; i += 2) {
			if ("--delay".equals(args[i])) {
				delay = LoadOptions.duration(args[i + 1], "--delay");
			}
			else {
				throw new IllegalArgumentException("Unknown option '" + args[i] + "'; expected --delay");
			}
		}
		try (FakeOpenAiServer server = start(delay)) {
			System.out.println("port=" + server.server.port());
			System.out.flush();
			CountDownLatch closed = new CountDownLatch(1);
			Thread reader = new Thread(() -> {
				try {
					while (System.in.read() != -1) {
						// the parent holds the pipe open while it needs the server
					}
				}
				catch (java.io.IOException ex) {
					// the parent is gone
				}
				closed.countDown();
			}, "stdin-watch");
			reader.setDaemon(true);
			reader.start();
			closed.await();
		}
	}

}
