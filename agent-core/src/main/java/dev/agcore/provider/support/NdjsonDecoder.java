package dev.agcore.provider.support;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import reactor.core.publisher.Flux;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;

/**
 * Decodes a stream of network reads into the lines of newline-delimited JSON
 * ({@code application/x-ndjson}), as Ollama streams. Lines split across reads at any
 * byte, even inside a multi-byte UTF-8 character, are joined; LF and CRLF line ends are
 * accepted; blank lines are skipped; a last line without a line end is kept. Lines are
 * returned as text, not parsed.
 */
public final class NdjsonDecoder {

	/** The longest line accepted by default: 16 MiB. */
	public static final int DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

	private NdjsonDecoder() {
	}

	/**
	 * Decode data buffers, releasing each one once read.
	 * @param buffers the network reads, in order
	 * @return the non-blank lines; fails with a {@link DataBufferLimitException} when one
	 * line exceeds {@link #DEFAULT_MAX_LINE_BYTES}
	 */
	public static Flux<String> decode(Flux<DataBuffer> buffers) {
		return decode(buffers, DEFAULT_MAX_LINE_BYTES);
	}

	/**
	 * Decode data buffers, releasing each one once read.
	 * @param buffers the network reads, in order
	 * @param maxLineBytes the longest line accepted
	 * @return the non-blank lines; fails with a {@link DataBufferLimitException} when one
	 * line exceeds {@code maxLineBytes}
	 */
	public static Flux<String> decode(Flux<DataBuffer> buffers, int maxLineBytes) {
		return Flux.defer(() -> {
			LineSplitter splitter = new LineSplitter(maxLineBytes);
			// copied and released before splitting, as in SseDecoder: a failure inside
			// concatMapIterable must not leave a buffer to be released twice
			return buffers.map(NdjsonDecoder::toBytes)
				.concatMapIterable(splitter::feed)
				.concatWith(Flux.defer(() -> Flux.fromIterable(splitter.finish())));
		}).doOnDiscard(DataBuffer.class, DataBufferUtils::release);
	}

	/**
	 * Decode raw byte chunks.
	 * @param chunks the network reads, in order
	 * @param maxLineBytes the longest line accepted
	 * @return the non-blank lines
	 */
	public static Flux<String> decodeBytes(Flux<byte[]> chunks, int maxLineBytes) {
		return Flux.defer(() -> {
			LineSplitter splitter = new LineSplitter(maxLineBytes);
			return chunks.concatMapIterable(splitter::feed)
				.concatWith(Flux.defer(() -> Flux.fromIterable(splitter.finish())));
		});
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

	/**
	 * Cuts bytes into lines. Not thread-safe: one per stream.
	 */
	private static final class LineSplitter {

		private final int maxLineBytes;

		private byte[] line;

		private int length;

		LineSplitter(int maxLineBytes) {
			if (maxLineBytes < 1) {
				throw new IllegalArgumentException("'maxLineBytes' must be positive");
			}
			this.maxLineBytes = maxLineBytes;
			this.line = new byte[Math.min(256, maxLineBytes)];
		}

		List<String> feed(byte[] bytes) {
			List<String> lines = new ArrayList<>(2);
			for (byte b : bytes) {
				if (b == '\n') {
					endLine(lines);
				}
				else {
					append(b);
				}
			}
			return lines;
		}

		List<String> finish() {
			List<String> lines = new ArrayList<>(1);
			endLine(lines);
			return lines;
		}

		private void append(byte b) {
			if (this.length == this.line.length) {
				if (this.line.length >= this.maxLineBytes) {
					throw new DataBufferLimitException("NDJSON line exceeds " + this.maxLineBytes + " bytes");
				}
				this.line = Arrays.copyOf(this.line, (int) Math.min(this.line.length * 2L, this.maxLineBytes));
			}
			this.line[this.length++] = b;
		}

		private void endLine(List<String> lines) {
			int end = this.length;
			if (end > 0 && this.line[end - 1] == '\r') {
				end--;
			}
			String text = new String(this.line, 0, end, StandardCharsets.UTF_8);
			this.length = 0;
			if (!text.isBlank()) {
				lines.add(text);
			}
		}

	}

}
