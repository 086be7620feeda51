package dev.agcore.provider.support;

import java.nio.charset.StandardCharsets;

import reactor.core.publisher.Flux;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;

/**
 * Decodes a stream of network reads into server-sent events. Tolerates comment lines,
 * {@code event:}, {@code id:} and {@code retry:} lines, keep-alive blank lines, CRLF, CR
 * or LF line ends, {@code data:} with or without a space, multi-line data, and events
 * split across reads at any byte, including inside a multi-byte UTF-8 character.
 */
public final class SseDecoder {

	private SseDecoder() {
	}

	/**
	 * Decode data buffers, releasing each one once read.
	 * @param buffers the network reads, in order
	 * @return the events; fails with a
	 * {@link org.springframework.core.io.buffer.DataBufferLimitException} when one event
	 * exceeds 16 MiB
	 */
	public static Flux<SseEvent> decode(Flux<DataBuffer> buffers) {
		return decode(buffers, SseEventParser.DEFAULT_MAX_EVENT_BYTES);
	}

	static Flux<SseEvent> decode(Flux<DataBuffer> buffers, int maxEventBytes) {
		return Flux.defer(() -> {
			SseEventParser parser = new SseEventParser(maxEventBytes);
			// copied and released before parsing: were the parser to fail inside
			// concatMapIterable, that operator would discard the buffer it was given, and
			// releasing it a second time takes a reference that Netty still holds
			return buffers.map(SseDecoder::toBytes)
				.concatMapIterable((bytes) -> parser.feed(bytes, 0, bytes.length))
				.concatWith(Flux.defer(() -> Flux.fromIterable(parser.finish())));
		}).doOnDiscard(DataBuffer.class, DataBufferUtils::release);
	}

	/**
	 * Decode raw byte chunks.
	 * @param chunks the network reads, in order
	 * @return the events
	 */
	public static Flux<SseEvent> decodeBytes(Flux<byte[]> chunks) {
		return Flux.defer(() -> {
			SseEventParser parser = new SseEventParser();
			return chunks.concatMapIterable((chunk) -> parser.feed(chunk, 0, chunk.length))
				.concatWith(Flux.defer(() -> Flux.fromIterable(parser.finish())));
		});
	}

	/**
	 * Decode text chunks, for sources that already decoded the bytes.
	 * @param chunks the text, in order
	 * @return the events
	 */
	public static Flux<SseEvent> decodeStrings(Flux<String> chunks) {
		return decodeBytes(chunks.map((chunk) -> chunk.getBytes(StandardCharsets.UTF_8)));
	}

	private static byte[] toBytes(DataBuffer buffer) {
		try {
			byte[] bytes = new byte[buffer.readableByteCount()];
			buffer.read(bytes);
			return bytes;
		}
		finally {
			DataBufferUtils.release(buffer);
		}
	}

}
