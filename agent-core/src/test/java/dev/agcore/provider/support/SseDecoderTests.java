package dev.agcore.provider.support;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.core.io.buffer.NettyDataBufferFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link SseDecoder}.
 */
class SseDecoderTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private static final String STREAM = """
			: comment
			event: message
			id: 7
			retry: 1000
			data: {"text":"héllo 👋"}

			data:no-space
			data: second line

			: keep-alive



			data: [DONE]

			""";

	private static final List<SseEvent> EXPECTED = List.of(new SseEvent("7", "message", "{\"text\":\"héllo 👋\"}"),
			new SseEvent("7", null, "no-space\nsecond line"), new SseEvent("7", null, "[DONE]"));

	@Test
	void decodesAllLineFormsInOneRead() {
		assertThat(decode(List.of(bytes(STREAM)))).isEqualTo(EXPECTED);
	}

	@Test
	void decodesCrlfAndCrLineEnds() {
		assertThat(decode(List.of(bytes(STREAM.replace("\n", "\r\n"))))).isEqualTo(EXPECTED);
		assertThat(decode(List.of(bytes(STREAM.replace("\n", "\r"))))).isEqualTo(EXPECTED);
	}

	@Test
	void decodesEveryTwoWaySplitAtAnyByte() {
		for (String lineEnd : List.of("\n", "\r\n")) {
			byte[] all = bytes(STREAM.replace("\n", lineEnd));
			for (int split = 0; split <= all.length; split++) {
				List<byte[]> reads = List.of(Arrays.copyOfRange(all, 0, split), Arrays.copyOfRange(all, split, all.length));
				assertThat(decode(reads)).as("split at %d with %s", split, lineEnd.length()).isEqualTo(EXPECTED);
			}
		}
	}

	@Test
	void decodesOneByteReads() {
		byte[] all = bytes(STREAM.replace("\n", "\r\n"));
		List<byte[]> reads = new ArrayList<>();
		for (byte b : all) {
			reads.add(new byte[] { b });
		}
		assertThat(decode(reads)).isEqualTo(EXPECTED);
	}

	@Test
	void decodesMultiByteCharacterSplitBetweenBuffers() {
		byte[] all = bytes("data: ö€👋\n\n");
		int start = "data: ".length();
		// split inside the 2-byte ö, the 3-byte € and the 4-byte emoji
		for (int split : new int[] { start + 1, start + 3, start + 4, start + 6, start + 7, start + 8 }) {
			List<byte[]> reads = List.of(Arrays.copyOfRange(all, 0, split), Arrays.copyOfRange(all, split, all.length));
			assertThat(decode(reads)).containsExactly(SseEvent.of("ö€👋"));
		}
	}

	@Test
	void decodesDataBuffersAndReleasesThem() {
		DefaultDataBufferFactory factory = DefaultDataBufferFactory.sharedInstance;
		byte[] all = bytes("data: {\"a\":\"ü\"}\r\n\r\ndata: [DONE]\r\n\r\n");
		List<DataBuffer> buffers = new ArrayList<>();
		for (int i = 0; i < all.length; i += 5) {
			buffers.add(factory.wrap(Arrays.copyOfRange(all, i, Math.min(all.length, i + 5))));
		}
		StepVerifier.create(SseDecoder.decode(Flux.fromIterable(buffers)))
			.expectNext(SseEvent.of("{\"a\":\"ü\"}"), SseEvent.of("[DONE]"))
			.expectComplete()
			.verify(TIMEOUT);
	}

	@Test
	void decodesStrings() {
		StepVerifier.create(SseDecoder.decodeStrings(Flux.just("da", "ta: x\n", "\ndata: y\n\n")))
			.expectNext(SseEvent.of("x"), SseEvent.of("y"))
			.expectComplete()
			.verify(TIMEOUT);
	}

	@Test
	void dispatchesUnterminatedLastEventAtEndOfStream() {
		assertThat(decode(List.of(bytes("data: a\n\ndata: b")))).containsExactly(SseEvent.of("a"), SseEvent.of("b"));
	}

	@Test
	void ignoresEventWithoutData() {
		assertThat(decode(List.of(bytes("event: ping\n\n: only a comment\n\nid: 3\n\n")))).isEmpty();
	}

	@Test
	void keepsEmptyDataEvent() {
		assertThat(decode(List.of(bytes("data:\n\n")))).containsExactly(SseEvent.of(""));
	}

	@Test
	void stripsByteOrderMark() {
		assertThat(decode(List.of(bytes("\uFEFFdata: a\n\n")))).containsExactly(SseEvent.of("a"));
	}

	@Test
	void failsWhenAnEventExceedsTheLimit() {
		SseEventParser parser = new SseEventParser(64);
		byte[] line = bytes("data: " + "x".repeat(100) + "\n\n");
		assertThatExceptionOfType(DataBufferLimitException.class)
			.isThrownBy(() -> parser.feed(line, 0, line.length));
	}

	@Test
	void releasesEachBufferExactlyOnceWhenAnEventExceedsTheLimit() {
		// like Netty's reads: slices sharing the reference count of one network buffer
		byte[] all = bytes("data: a\n\ndata: " + "x".repeat(100) + "\n\ndata: b\n\n");
		ByteBuf network = Unpooled.wrappedBuffer(all);
		NettyDataBufferFactory factory = new NettyDataBufferFactory(UnpooledByteBufAllocator.DEFAULT);
		List<DataBuffer> buffers = new ArrayList<>();
		for (int i = 0; i < all.length; i += 30) {
			buffers.add(factory.wrap(network.retainedSlice(i, Math.min(30, all.length - i))));
		}
		try (LogCapture log = LogCapture.start()) {
			StepVerifier.create(SseDecoder.decode(Flux.fromIterable(buffers), 64))
				.expectNext(SseEvent.of("a"))
				.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(DataBufferLimitException.class)
					.hasMessageContaining("exceeds 64 bytes"))
				.verify(TIMEOUT);
			assertThat(log.failures()).isEmpty();
		}
		// every slice released once: only the network read's own reference is left
		assertThat(network.refCnt()).isOne();
		assertThat(network.release()).isTrue();
	}

	private static List<SseEvent> decode(List<byte[]> reads) {
		return SseDecoder.decodeBytes(Flux.fromIterable(reads)).collectList().block(TIMEOUT);
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
