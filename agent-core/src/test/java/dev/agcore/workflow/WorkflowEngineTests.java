package dev.agcore.workflow;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.json.AgentJson;
import dev.agcore.run.Run;
import dev.agcore.run.RunEmission;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStatus;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class WorkflowEngineTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final InMemoryCheckpointStore store = new InMemoryCheckpointStore();

	private final AtomicInteger fetches = new AtomicInteger();

	private final AtomicInteger sums = new AtomicInteger();

	private final AtomicInteger publishes = new AtomicInteger();

	private final JsonNode input = AgentJson.mapper().createObjectNode().put("n", 3);

	// fetch, sum, ask a human, publish the answer
	private final Workflow review = Workflow.of("review", (ctx, in) -> {
		List<Integer> numbers = ctx.task("fetch", new tools.jackson.core.type.TypeReference<List<Integer>>() {
		}, () -> {
			this.fetches.incrementAndGet();
			return List.of(1, 2, in.path("n").asInt());
		});
		Integer sum = ctx.task("sum", Integer.class, () -> {
			this.sums.incrementAndGet();
			return numbers.stream().mapToInt(Integer::intValue).sum();
		});
		JsonNode verdict = ctx.interrupt(java.util.Map.of("sum", sum));
		return ctx.task("publish", String.class, () -> {
			this.publishes.incrementAndGet();
			return sum + ":" + verdict.asString();
		});
	});

	private WorkflowEngine engine(Workflow... workflows) {
		return new WorkflowEngine(new WorkflowRegistry(List.of(workflows)), this.store);
	}

	@Test
	void tasksAreCheckpointedByCallId() {
		Workflow twice = Workflow.of("twice", (ctx, in) -> {
			ctx.task("step", String.class, () -> "a");
			return ctx.task("step", String.class, () -> "b");
		});
		WorkflowResult result = engine(twice).run("twice", "r1", this.input, List.of()).block(TIMEOUT);
		assertThat(result.status()).isEqualTo(WorkflowResult.Status.COMPLETED);
		assertThat(result.value().asString()).isEqualTo("b");
		assertThat(this.store.load("r1").block(TIMEOUT).tasks()).containsOnlyKeys("step#0", "step#1");
	}

	@Test
	void resumedRunSkipsFinishedTasksAndAnswersTheInterrupt() {
		WorkflowEngine engine = engine(this.review);
		WorkflowResult first = engine.run("review", "r1", this.input, List.of()).block(TIMEOUT);
		assertThat(first.isInterrupted()).isTrue();
		assertThat(first.value().path("sum").asInt()).isEqualTo(6);
		WorkflowResult second = engine.run("review", "r1", this.input, List.of(text("ok"))).block(TIMEOUT);
		assertThat(second.status()).isEqualTo(WorkflowResult.Status.COMPLETED);
		assertThat(second.value().asString()).isEqualTo("6:ok");
		assertThat(this.fetches).hasValue(1);
		assertThat(this.sums).hasValue(1);
		assertThat(this.publishes).hasValue(1);
	}

	@Test
	void twoInterruptsAnsweredInOrder() {
		Workflow ask = Workflow.of("ask", (ctx, in) -> {
			JsonNode first = ctx.interrupt("first?");
			ctx.task("between", String.class, () -> "x" + this.fetches.incrementAndGet());
			JsonNode second = ctx.interrupt("second?");
			return first.asString() + "," + second.asString();
		});
		WorkflowEngine engine = engine(ask);
		assertThat(engine.run("ask", "r2", this.input, List.of()).block(TIMEOUT).value().asString())
			.isEqualTo("first?");
		assertThat(engine.answer("r2", text("A")).block(TIMEOUT)).isTrue();
		assertThat(engine.answer("r2", text("again")).block(TIMEOUT)).isFalse();
		WorkflowResult waiting = engine.run("ask", "r2", this.input, List.of()).block(TIMEOUT);
		assertThat(waiting.isInterrupted()).isTrue();
		assertThat(waiting.value().asString()).isEqualTo("second?");
		engine.answer("r2", text("B")).block(TIMEOUT);
		WorkflowResult done = engine.run("ask", "r2", this.input, List.of()).block(TIMEOUT);
		assertThat(done.value().asString()).isEqualTo("A,B");
		assertThat(this.fetches).hasValue(1);
	}

	@Test
	void failingTaskIsNotCheckpointedAndRunsAgain() {
		AtomicInteger attempts = new AtomicInteger();
		Workflow flaky = Workflow.of("flaky", (ctx, in) -> {
			ctx.task("fetch", Integer.class, this.fetches::incrementAndGet);
			return ctx.task("flaky", String.class, () -> {
				if (attempts.incrementAndGet() == 1) {
					throw new IllegalStateException("boom");
				}
				return "fine";
			});
		});
		WorkflowEngine engine = engine(flaky);
		assertThatIllegalStateException().isThrownBy(() -> engine.run("flaky", "r3", this.input, List.of())
			.block(TIMEOUT)).withMessage("boom");
		assertThat(this.store.load("r3").block(TIMEOUT).tasks()).containsOnlyKeys("fetch#0");
		assertThat(engine.run("flaky", "r3", this.input, List.of()).block(TIMEOUT).value().asString())
			.isEqualTo("fine");
		assertThat(attempts).hasValue(2);
		assertThat(this.fetches).hasValue(1);
	}

	@Test
	void checkedExceptionOfATaskIsWrapped() {
		Workflow failing = Workflow.of("failing", (ctx, in) -> ctx.task("io", String.class, () -> {
			throw new java.io.IOException("disk");
		}));
		assertThatExceptionOfType(WorkflowTaskException.class)
			.isThrownBy(() -> engine(failing).run("failing", "r4", this.input, List.of()).block(TIMEOUT))
			.withMessageContaining("io#0")
			.withCauseInstanceOf(java.io.IOException.class);
	}

	@Test
	void eventsTellTasksCachedOrRunCustomEventsAndTheEnd() {
		WorkflowEngine engine = engine(this.review);
		engine.run("review", "r5", this.input, List.of()).block(TIMEOUT);
		List<WorkflowEvent> events = engine.stream("review", "r5", this.input, List.of(text("ok")))
			.collectList()
			.block(TIMEOUT);
		assertThat(events).extracting(WorkflowEvent::type)
			.containsExactly("task_completed", "task_completed", "task_started", "task_completed", "completed");
		assertThat(events.get(0).data().path("cached").asBoolean()).isTrue();
		assertThat(events.get(0).data().path("callId").asString()).isEqualTo("fetch#0");
		assertThat(events.get(3).data().path("cached").asBoolean()).isFalse();
		assertThat(events.get(4).data().path("output").asString()).isEqualTo("6:ok");
		Workflow custom = Workflow.of("custom", (ctx, in) -> {
			ctx.emit("progress", java.util.Map.of("percent", 50));
			return null;
		});
		List<WorkflowEvent> customEvents = engine(custom).stream("custom", "r6", this.input, List.of())
			.collectList()
			.block(TIMEOUT);
		assertThat(customEvents).extracting(WorkflowEvent::type).containsExactly("progress", "completed");
		assertThat(customEvents.get(0).data().path("percent").asInt()).isEqualTo(50);
		assertThat(customEvents.get(1).data().path("output").isNull()).isTrue();
	}

	@Test
	void cancellingInterruptsTheTaskAndStopsFurtherTasks() throws InterruptedException {
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch interrupted = new CountDownLatch(1);
		AtomicInteger after = new AtomicInteger();
		Workflow slow = Workflow.of("slow", (ctx, in) -> {
			ctx.task("slow", String.class, () -> {
				started.countDown();
				try {
					Thread.sleep(30_000);
				}
				catch (InterruptedException ex) {
					interrupted.countDown();
					Thread.currentThread().interrupt();
					throw ex;
				}
				return "late";
			});
			return ctx.task("after", Integer.class, after::incrementAndGet);
		});
		Disposable subscription = engine(slow).stream("slow", "r7", this.input, List.of()).subscribe();
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(Thread.currentThread().getName()).doesNotContain("boundedElastic");
		subscription.dispose();
		assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
		Thread.sleep(200);
		assertThat(after).hasValue(0);
		assertThat(this.store.load("r7").blockOptional(TIMEOUT)).isEmpty();
	}

	@Test
	void workflowRunsOnAThreadThatMayBlock() {
		Workflow where = Workflow.of("where", (ctx, in) -> Thread.currentThread().getName());
		assertThat(engine(where).run("where", "r8", this.input, List.of()).block(TIMEOUT).value().asString())
			.startsWith("boundedElastic");
	}

	@Test
	void currentContextIsBoundToTheWorkflowsThread() {
		Workflow bound = Workflow.of("bound", (ctx, in) -> WorkflowContext.current().orElseThrow() == ctx);
		assertThat(engine(bound).run("bound", "r9", this.input, List.of()).block(TIMEOUT).value().asBoolean())
			.isTrue();
		assertThat(WorkflowContext.current()).isEmpty();
	}

	@Test
	void unknownWorkflowFailsNamingTheKnownOnes() {
		assertThatExceptionOfType(UnknownWorkflowException.class)
			.isThrownBy(() -> engine(this.review).run("nope", "r", this.input, List.of()).block(TIMEOUT))
			.withMessageContaining("review");
	}

	@Test
	void duplicateNamesFail() {
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> new WorkflowRegistry(List.of(this.review, this.review)))
			.withMessageContaining("'review'");
	}

	@Test
	void newerCheckpointFormatIsRefused() {
		this.store.put(new Checkpoint("r10", Checkpoint.FORMAT_VERSION + 1, 1, java.util.Map.of(), List.of(), 0));
		assertThatExceptionOfType(CheckpointFormatException.class)
			.isThrownBy(() -> engine(this.review).run("review", "r10", this.input, List.of()).block(TIMEOUT));
		assertThat(this.fetches).hasValue(0);
	}

	@Test
	void runExecutorAnswersTheInterruptOnceAndEndsWithTheOutcome() {
		WorkflowRunExecutor executor = new WorkflowRunExecutor(engine(this.review));
		assertThat(executor.kind()).isEqualTo("workflow");
		assertThat(executor.targets()).containsExactly("review");
		Run queued = run(null);
		List<RunEmission> first = executor.execute(queued).collectList().block(TIMEOUT);
		RunEmission end = first.get(first.size() - 1);
		assertThat(end.outcome().status()).isEqualTo(RunStatus.INTERRUPTED);
		assertThat(end.outcome().result().path("sum").asInt()).isEqualTo(6);
		Run resumed = run(text("ok"));
		// claimed twice after the resume (its first worker died): the answer is kept once
		executor.execute(resumed).take(1).collectList().block(TIMEOUT);
		List<RunEmission> second = executor.execute(resumed).collectList().block(TIMEOUT);
		RunEmission last = second.get(second.size() - 1);
		assertThat(last.type()).isEqualTo("completed");
		assertThat(last.outcome().status()).isEqualTo(RunStatus.COMPLETED);
		assertThat(last.outcome().result().asString()).isEqualTo("6:ok");
		assertThat(this.store.load("run-1").block(TIMEOUT).resumeValues()).hasSize(1);
		assertThat(this.fetches).hasValue(1);
	}

	private Run run(JsonNode resume) {
		return new Run("run-1", RunRequest.of("workflow", "review", "s1", this.input),
				RunStatus.RUNNING, resume, null, null, 1, false, "w", null, java.time.Instant.now(), null, null);
	}

	private static JsonNode text(String value) {
		return JsonNodeFactory.instance.stringNode(value);
	}

}
