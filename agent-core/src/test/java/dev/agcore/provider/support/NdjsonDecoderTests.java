package dev.agcore.provider.support;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.core.io.buffer.NettyDataBufferFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link NdjsonDecoder}.
 */
class NdjsonDecoderTests {

	private static final String STREAM = "{\"a\":\"Grüße\"}\n{\"b\":\"日本\"}\r\n\n  \n{\"c\":3}";

	@Test
	void splitsLinesSkippingBlankOnesAndKeepsALastLineWithoutLineEnd() {
		assertThat(decode(STREAM.getBytes(StandardCharsets.UTF_8).length, STREAM))
			.containsExactly("{\"a\":\"Grüße\"}", "{\"b\":\"日本\"}", "{\"c\":3}");
	}

	@Test
	void joinsLinesSplitAtEveryByteEvenInsideMultiByteCharacters() {
		for (int size = 1; size <= 8; size++) {
			assertThat(decode(size, STREAM)).as("reads of %d bytes", size)
				.containsExactly("{\"a\":\"Grüße\"}", "{\"b\":\"日本\"}", "{\"c\":3}");
		}
	}

	@Test
	void lineOverTheLimitFails() {
		byte[] line = ("{\"x\":\"" + "y".repeat(100) + "\"}\n").getBytes(StandardCharsets.UTF_8);
		StepVerifier.create(NdjsonDecoder.decodeBytes(Flux.just(line), 64))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(DataBufferLimitException.class)
				.hasMessageContaining("exceeds 64 bytes"))
			.verify(Duration.ofSeconds(5));
	}

	@Test
	void linesUpToTheLimitPass() {
		String line = "y".repeat(64);
		assertThat(NdjsonDecoder.decodeBytes(Flux.just((line + "\n").getBytes(StandardCharsets.UTF_8)), 64)
			.collectList()
			.block(Duration.ofSeconds(5))).containsExactly(line);
	}

	@Test
	void releasesEveryBufferIncludingWhenALineIsTooLong() {
		NettyDataBufferFactory factory = new NettyDataBufferFactory(UnpooledByteBufAllocator.DEFAULT);
		List<ByteBuf> bufs = new ArrayList<>();
		Flux<DataBuffer> buffers = Flux.range(0, 4).map((i) -> {
			ByteBuf buf = UnpooledByteBufAllocator.DEFAULT.buffer();
			buf.writeBytes("x".repeat(40).getBytes(StandardCharsets.UTF_8));
			bufs.add(buf);
			return factory.wrap(buf);
		});
		StepVerifier.create(NdjsonDecoder.decode(buffers, 64))
			.expectError(DataBufferLimitException.class)
			.verify(Duration.ofSeconds(5));
		assertThat(bufs).isNotEmpty().allSatisfy((buf) -> assertThat(buf.refCnt()).isZero());
	}

	private static List<String> decode(int readSize, String text) {
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
		List<DataBuffer> reads = new ArrayList<>();
		for (int i = 0; i < bytes.length; i += readSize) {
			reads.add(DefaultDataBufferFactory.sharedInstance
				.wrap(Arrays.copyOfRange(bytes, i, Math.min(bytes.length, i + readSize))));
		}
		return NdjsonDecoder.decode(Flux.fromIterable(reads)).collectList().block(Duration.ofSeconds(5));
	}

}
