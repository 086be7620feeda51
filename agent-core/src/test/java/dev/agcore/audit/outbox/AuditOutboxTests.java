package dev.agcore.audit.outbox;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import dev.agcore.Tool;
import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.AuditSink;
import dev.agcore.audit.AuditSinkException;
import dev.agcore.audit.Auditor;
import dev.agcore.message.ToolCall;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.method.MethodTools;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The outbox on its own: bounded (a full outbox keeps tools from running, and lets them
 * run again once the sink caught up), of one process at a time, and never held back by one
 * event the sink refuses or a record the disk garbled.
 */
class AuditOutboxTests {

	private static final Duration FLUSH = Duration.ofSeconds(30);

	@TempDir
	Path directory;

	private final Set<String> stored = ConcurrentHashMap.newKeySet();

	private final AtomicBoolean down = new AtomicBoolean();

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private final AuditSink sink = (events) -> {
		if (this.down.get()) {
			throw new AuditSinkException("down", true, new IllegalStateException("down"));
		}
		events.forEach((event) -> this.stored.add(event.id().toString()));
	};

	@AfterEach
	void close() throws Exception {
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
	}

	@Test
	void aFullOutboxKeepsToolsFromRunningUntilTheSinkCatchesUp() throws Exception {
		AuditOutbox outbox = open(AuditOutbox.builder(this.directory, this.sink)
			.maxBytes(2000)
			.backoff(Duration.ofMillis(10), Duration.ofMillis(20)));
		List<AuditEvent> heard = new CopyOnWriteArrayList<>();
		Auditor auditor = Auditor.of((event) -> {
			heard.add(event);
			outbox.onAuditEvent(event);
		}).withGate(outbox);
		Counter counter = new Counter();
		Agent agent = Agent.builder()
			.name("counter")
			.model(ScriptedChatModel.answering((request) -> (request.messages().size() < 3)
					? toolCalls(new ToolCall("c1", "count", "{}")) : text("done")))
			.tools(MethodTools.from(counter))
			.auditor(auditor)
			.build();
		this.down.set(true);

		for (int i = 0; i < 20 && outbox.refusal() == null; i++) {
			outbox.onAuditEvent(event("s" + i));
		}
		assertThat(outbox.refusal()).isEqualTo("the audit trail cannot record it now");
		agent.call(new AgentRequest("s1", "count", java.util.Map.of(), "alice"));

		assertThat(counter.calls).hasValue(0);
		// the refusal itself is recorded, past the bound
		assertThat(heard).last().satisfies((event) -> {
			assertThat(event.kind()).isEqualTo(AuditEvent.Kind.PERMISSION_DENIED);
			assertThat(event.detail()).isEqualTo("the audit trail cannot record it now");
		});

		this.down.set(false);
		assertThat(outbox.flush(FLUSH)).isTrue();
		assertThat(outbox.refusal()).isNull();
		agent.call(new AgentRequest("s2", "count", java.util.Map.of(), "alice"));
		assertThat(counter.calls).hasValue(1);
		assertThat(outbox.flush(FLUSH)).isTrue();
		assertThat(this.stored).containsAll(heard.stream().map((event) -> event.id().toString()).toList());
	}

	@Test
	void aDirectoryIsUsedByOneOutboxAtATime() {
		open(AuditOutbox.builder(this.directory, this.sink));

		assertThatIllegalStateException().isThrownBy(() -> AuditOutbox.builder(this.directory, this.sink).build())
			.withMessageContaining("is in use by another outbox");
	}

	@Test
	void anEventTheSinkRefusesIsSetAsideAndTheOthersLand() throws Exception {
		AuditEvent bad = event("bad");
		AuditSink refusing = (events) -> {
			if (events.contains(bad)) {
				throw new AuditSinkException("value too long", false, new IllegalArgumentException("22001"));
			}
			this.sink.store(events);
		};
		AuditOutbox outbox = open(AuditOutbox.builder(this.directory, refusing));
		List<AuditEvent> good = List.of(event("a"), event("b"));

		outbox.onAuditEvent(good.get(0));
		outbox.onAuditEvent(bad);
		outbox.onAuditEvent(good.get(1));

		assertThat(outbox.flush(FLUSH)).isTrue();
		assertThat(this.stored).containsExactlyInAnyOrder(good.get(0).id().toString(), good.get(1).id().toString());
		assertThat(outbox.rejectedEvents()).isEqualTo(1);
		assertThat(Files.readString(this.directory.resolve("rejected.log"))).contains(bad.id().toString());
	}

	@Test
	void aGarbledRecordIsSkippedAndTheOthersLand() throws Exception {
		this.down.set(true);
		AuditOutbox first = AuditOutbox.builder(this.directory, this.sink).build();
		AuditEvent a = event("a");
		AuditEvent b = event("b");
		first.onAuditEvent(a);
		first.onAuditEvent(b);
		first.close();
		// the disk flips a byte of the first record
		Path segment = segments().get(0);
		byte[] bytes = Files.readAllBytes(segment);
		bytes[20] ^= 0x01;
		Files.write(segment, bytes);
		this.down.set(false);

		AuditOutbox second = open(AuditOutbox.builder(this.directory, this.sink));

		assertThat(second.flush(FLUSH)).isTrue();
		assertThat(this.stored).containsExactly(b.id().toString());
		assertThat(Files.exists(this.directory.resolve("corrupt.log"))).isTrue();
	}

	@Test
	void storedSegmentsAreDeleted() throws Exception {
		AuditOutbox outbox = open(AuditOutbox.builder(this.directory, this.sink).maxBytes(4096 * 4));
		for (int i = 0; i < 200; i++) {
			outbox.onAuditEvent(event("s" + i));
		}

		assertThat(outbox.flush(FLUSH)).isTrue();
		assertThat(this.stored).hasSize(200);
		assertThat(segments()).hasSize(1);
		assertThat(outbox.pendingBytes()).isZero();
	}

	private List<Path> segments() throws Exception {
		try (Stream<Path> files = Files.list(this.directory)) {
			return files.filter((file) -> file.getFileName().toString().startsWith("segment-")).sorted().toList();
		}
	}

	private AuditOutbox open(AuditOutbox.Builder builder) {
		AuditOutbox outbox = builder.build();
		this.closeables.add(outbox);
		return outbox;
	}

	private static AuditEvent event(String sessionId) {
		return new AuditEvent(AuditEvent.Kind.TOOL_CALL, "mailer", sessionId, "alice", "send_mail", "c1",
				"{\"to\":\"[REDACTED_EMAIL]\"}", "success", "", Instant.now());
	}

	static class Counter {

		final AtomicInteger calls = new AtomicInteger();

		@Tool(name = "count")
		String count() {
			return "count " + this.calls.incrementAndGet();
		}

	}

}
