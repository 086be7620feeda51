package dev.agcore.audit.outbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.stream.Stream;

import dev.agcore.audit.AuditEvent;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of an {@link AuditOutbox}: events appended to numbered segment files, each
 * append forced to the disk before it returns, and a checkpoint naming how far the sink
 * has stored them. A segment whose events are all stored is deleted. One process at a
 * time: the directory is locked while open. Thread-safe: appends and reads take turns.
 * <p>
 * A crash can leave the last line of the last segment cut short; it was never
 * acknowledged, so it is cut off when the journal opens again. A line whose checksum does
 * not match anywhere else is skipped and logged at ERROR, and copied to
 * {@code corrupt.log} for whoever investigates.
 */
final class AuditJournal implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(AuditJournal.class);

	private static final String SEGMENT_PREFIX = "segment-";

	private static final String SEGMENT_SUFFIX = ".log";

	private static final int READ_CHUNK = 256 * 1024;

	/** Where the sink has stored up to: a segment and an offset in it. */
	record Position(long segment, long offset) {

	}

	/** An event read back (none for a damaged record), and the position just after it. */
	record Entry(@Nullable AuditEvent event, Position end) {

	}

	private final Path directory;

	private final long segmentBytes;

	private final FileChannel lockChannel;

	private final FileLock lock;

	// segment number -> its path, oldest first; the last one is appended to
	private final TreeMap<Long, Path> segments = new TreeMap<>();

	private FileChannel appender;

	private long appendSegment;

	private long appendSize;

	private Position stored;

	private Position read;

	private long pendingBytes;

	private boolean closed;

	private AuditJournal(Path directory, long segmentBytes, FileChannel lockChannel, FileLock lock) throws IOException {
		this.directory = directory;
		this.segmentBytes = segmentBytes;
		this.lockChannel = lockChannel;
		this.lock = lock;
		try (Stream<Path> files = Files.list(directory)) {
			files.forEach((file) -> {
				Long number = segmentNumber(file);
				if (number != null) {
					this.segments.put(number, file);
				}
			});
		}
		this.stored = readCheckpoint();
		// segments before the checkpoint's were stored; a crash came before they were deleted
		while (!this.segments.isEmpty() && this.segments.firstKey() < this.stored.segment()) {
			Files.deleteIfExists(this.segments.pollFirstEntry().getValue());
		}
		if (this.segments.isEmpty()) {
			this.appendSegment = Math.max(1, this.stored.segment());
			this.segments.put(this.appendSegment, segmentPath(this.appendSegment));
			if (this.stored.segment() != this.appendSegment) {
				this.stored = new Position(this.appendSegment, 0);
			}
		}
		else {
			this.appendSegment = this.segments.lastKey();
		}
		Path last = this.segments.get(this.appendSegment);
		this.appender = FileChannel.open(last, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
				StandardOpenOption.READ);
		this.appendSize = cutTornTail(this.appender);
		if (this.stored.segment() == this.appendSegment && this.stored.offset() > this.appendSize) {
			this.stored = new Position(this.appendSegment, this.appendSize);
		}
		this.read = this.stored;
		this.pendingBytes = computePending();
	}

	/**
	 * Open the journal of a directory, creating it when missing.
	 * @param directory the directory, of this process alone
	 * @param segmentBytes the size past which a new segment is started
	 * @return the journal
	 * @throws IOException if the directory cannot be used
	 * @throws IllegalStateException if another process, or another outbox of this one,
	 * holds the directory
	 */
	static AuditJournal open(Path directory, long segmentBytes) throws IOException {
		Files.createDirectories(directory);
		FileChannel lockChannel = FileChannel.open(directory.resolve("outbox.lock"), StandardOpenOption.CREATE,
				StandardOpenOption.WRITE);
		FileLock lock;
		try {
			lock = lockChannel.tryLock();
		}
		catch (OverlappingFileLockException ex) {
			lock = null;
		}
		if (lock == null) {
			lockChannel.close();
			throw new IllegalStateException("The audit outbox directory " + directory.toAbsolutePath()
					+ " is in use by another outbox: each instance needs a directory of its own");
		}
		try {
			return new AuditJournal(directory, segmentBytes, lockChannel, lock);
		}
		catch (IOException | RuntimeException ex) {
			lock.release();
			lockChannel.close();
			throw ex;
		}
	}

	/**
	 * Append an event and force it to the disk.
	 * @param event the event
	 * @throws IOException if it could not be written; nothing of it counts then
	 */
	synchronized void append(AuditEvent event) throws IOException {
		if (this.closed) {
			throw new IOException("the audit journal is closed");
		}
		byte[] line = JournalRecords.encode(event);
		if (this.appendSize > 0 && this.appendSize + line.length > this.segmentBytes) {
			roll();
		}
		ByteBuffer buffer = ByteBuffer.wrap(line);
		try {
			while (buffer.hasRemaining()) {
				this.appender.write(buffer, this.appendSize + buffer.position());
			}
			this.appender.force(false);
		}
		catch (IOException ex) {
			// a part written is cut off, so that the next append starts a whole line
			try {
				this.appender.truncate(this.appendSize);
			}
			catch (IOException ignored) {
				// the next open cuts the torn line
			}
			throw ex;
		}
		this.appendSize += line.length;
		this.pendingBytes += line.length;
	}

	/**
	 * Read the events after those read last, oldest first.
	 * @param max the most events
	 * @return the events, empty when there are none yet
	 */
	synchronized List<Entry> read(int max) throws IOException {
		List<Entry> entries = new ArrayList<>();
		while (entries.size() < max && !this.closed) {
			long segment = this.read.segment();
			long size = (segment == this.appendSegment) ? this.appendSize : sizeOf(segment);
			if (this.read.offset() >= size) {
				Long next = this.segments.higherKey(segment);
				if (next == null) {
					break;
				}
				this.read = new Position(next, 0);
				continue;
			}
			readLines(segment, size, max, entries);
		}
		return entries;
	}

	private void readLines(long segment, long size, int max, List<Entry> entries) throws IOException {
		try (FileChannel channel = FileChannel.open(this.segments.get(segment), StandardOpenOption.READ)) {
			int chunk = READ_CHUNK;
			while (entries.size() < max && this.read.offset() < size) {
				long offset = this.read.offset();
				int length = (int) Math.min(chunk, size - offset);
				ByteBuffer buffer = ByteBuffer.allocate(length);
				while (buffer.hasRemaining() && channel.read(buffer, offset + buffer.position()) >= 0) {
					// until the chunk is read
				}
				byte[] bytes = buffer.array();
				int start = 0;
				boolean progressed = false;
				for (int i = 0; i < length && entries.size() < max; i++) {
					if (bytes[i] != '\n') {
						continue;
					}
					Position end = new Position(segment, offset + i + 1);
					AuditEvent event = JournalRecords.decode(bytes, start, i);
					if (event != null) {
						entries.add(new Entry(event, end));
					}
					else {
						corrupt(segment, offset + start, bytes, start, i);
						// nothing to store for it: it counts as stored once what precedes it is
						entries.add(new Entry(null, end));
					}
					this.read = end;
					start = i + 1;
					progressed = true;
				}
				if (!progressed) {
					if (length == size - offset) {
						// a line without its newline inside a segment: only a crash leaves one
						corrupt(segment, offset, bytes, 0, length);
						this.read = new Position(segment, size);
						return;
					}
					chunk *= 2;
				}
			}
		}
	}

	/**
	 * Note that the sink stored every event up to a position: the checkpoint moves there,
	 * and segments left behind are deleted.
	 * @param position the end of the last event stored
	 */
	synchronized void stored(Position position) throws IOException {
		if (this.closed) {
			return;
		}
		if (position.segment() < this.stored.segment()
				|| position.segment() == this.stored.segment() && position.offset() <= this.stored.offset()) {
			// stored again after a retry: the checkpoint is past it already
			return;
		}
		long consumed = distance(this.stored, position);
		Path checkpoint = this.directory.resolve("checkpoint");
		Path temporary = this.directory.resolve("checkpoint.tmp");
		try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
				StandardOpenOption.TRUNCATE_EXISTING)) {
			channel.write(ByteBuffer.wrap((position.segment() + " " + position.offset() + "\n")
				.getBytes(StandardCharsets.US_ASCII)));
			channel.force(false);
		}
		Files.move(temporary, checkpoint, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
		this.stored = position;
		this.pendingBytes -= consumed;
		while (this.segments.firstKey() < position.segment()) {
			Files.deleteIfExists(this.segments.pollFirstEntry().getValue());
		}
	}

	/**
	 * Return the bytes of events not yet stored.
	 * @return the bytes
	 */
	synchronized long pendingBytes() {
		return this.pendingBytes;
	}

	Path directory() {
		return this.directory;
	}

	@Override
	public synchronized void close() throws IOException {
		if (this.closed) {
			return;
		}
		this.closed = true;
		try {
			this.appender.close();
		}
		finally {
			this.lock.release();
			this.lockChannel.close();
		}
	}

	private void roll() throws IOException {
		this.appender.close();
		this.appendSegment++;
		Path next = segmentPath(this.appendSegment);
		this.segments.put(this.appendSegment, next);
		this.appender = FileChannel.open(next, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
				StandardOpenOption.READ);
		this.appendSize = 0;
		forceDirectory();
	}

	// the new file's entry in the directory survives a crash too
	private void forceDirectory() {
		try (FileChannel channel = FileChannel.open(this.directory, StandardOpenOption.READ)) {
			channel.force(true);
		}
		catch (IOException | UnsupportedOperationException ex) {
			// not every platform lets a directory be forced; the file's own force still holds
		}
	}

	private long distance(Position from, Position to) throws IOException {
		if (from.segment() == to.segment()) {
			return to.offset() - from.offset();
		}
		long bytes = sizeOf(from.segment()) - from.offset();
		for (long segment : this.segments.subMap(from.segment(), false, to.segment(), false).keySet()) {
			bytes += sizeOf(segment);
		}
		return bytes + to.offset();
	}

	private long computePending() throws IOException {
		long bytes = 0;
		for (long segment : this.segments.tailMap(this.stored.segment(), true).keySet()) {
			bytes += (segment == this.appendSegment) ? this.appendSize : sizeOf(segment);
		}
		return bytes - this.stored.offset();
	}

	private long sizeOf(long segment) throws IOException {
		if (segment == this.appendSegment) {
			return this.appendSize;
		}
		Path path = this.segments.get(segment);
		return (path != null && Files.exists(path)) ? Files.size(path) : 0;
	}

	private Position readCheckpoint() throws IOException {
		Path checkpoint = this.directory.resolve("checkpoint");
		if (!Files.exists(checkpoint)) {
			return new Position(this.segments.isEmpty() ? 1 : this.segments.firstKey(), 0);
		}
		String[] parts = Files.readString(checkpoint, StandardCharsets.US_ASCII).strip().split(" ");
		try {
			return new Position(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
		}
		catch (RuntimeException ex) {
			// the checkpoint is replaced atomically, so this is damage: send everything again, the sink keeps each once
			logger.error("The audit outbox checkpoint in {} cannot be read; every journaled event is sent again",
					this.directory.toAbsolutePath());
			return new Position(this.segments.isEmpty() ? 1 : this.segments.firstKey(), 0);
		}
	}

	// a crash during an append can leave a last line without its newline: it was never acknowledged
	private static long cutTornTail(FileChannel channel) throws IOException {
		long size = channel.size();
		long end = size;
		ByteBuffer one = ByteBuffer.allocate(1);
		while (end > 0) {
			one.clear();
			channel.read(one, end - 1);
			if (one.get(0) == '\n') {
				break;
			}
			end--;
		}
		if (end < size) {
			logger.warn("The audit outbox cut {} bytes of an event a crash left unfinished (never acknowledged)",
					size - end);
			channel.truncate(end);
			channel.force(false);
		}
		return end;
	}

	/**
	 * Keep an event the sink refused in {@code rejected.log}, forced to the disk, for
	 * whoever investigates: it is not lost, only not in the sink.
	 * @param event the event
	 */
	synchronized void reject(AuditEvent event) throws IOException {
		try (FileChannel channel = FileChannel.open(this.directory.resolve("rejected.log"), StandardOpenOption.CREATE,
				StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
			channel.write(ByteBuffer.wrap(JournalRecords.encode(event)));
			channel.force(false);
		}
	}

	private void corrupt(long segment, long offset, byte[] bytes, int start, int end) {
		logger.error("The audit outbox skipped a damaged record in {} at offset {} ({} bytes); it is copied to "
				+ "corrupt.log in that directory", segmentPath(segment).getFileName(), offset, end - start);
		try (FileChannel channel = FileChannel.open(this.directory.resolve("corrupt.log"), StandardOpenOption.CREATE,
				StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
			channel.write(ByteBuffer.wrap(bytes, start, end - start));
			channel.write(ByteBuffer.wrap(new byte[] { '\n' }));
			channel.force(false);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private Path segmentPath(long number) {
		return this.directory.resolve(String.format(Locale.ROOT, "%s%020d%s", SEGMENT_PREFIX, number, SEGMENT_SUFFIX));
	}

	private static @Nullable Long segmentNumber(Path file) {
		String name = file.getFileName().toString();
		if (!name.startsWith(SEGMENT_PREFIX) || !name.endsWith(SEGMENT_SUFFIX)) {
			return null;
		}
		try {
			return Long.parseLong(name.substring(SEGMENT_PREFIX.length(), name.length() - SEGMENT_SUFFIX.length()));
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

}
