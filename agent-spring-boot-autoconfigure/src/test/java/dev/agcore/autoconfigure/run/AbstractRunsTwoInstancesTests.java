package dev.agcore.autoconfigure.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import dev.agcore.json.AgentJson;
import dev.agcore.run.Run;
import dev.agcore.run.RunEvent;
import dev.agcore.run.RunOutcome;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStatus;
import dev.agcore.run.RunStore;
import dev.agcore.run.RunWorker;
import dev.agcore.run.schedule.RunScheduler;
import dev.agcore.workflow.WorkflowRunExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tests of background runs on two application instances sharing one store:
 * each instance a reactive web application on a random port in this JVM, with a run
 * worker of short lease. Subclasses give the store (PostgreSQL, Redis) and clean it up.
 */
abstract class AbstractRunsTwoInstancesTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final String STEPS_EVENTS = "/workflows/steps/runs/%s/events";

	private final List<ConfigurableApplicationContext> instances = new ArrayList<>();

	/**
	 * The configuration that selects the store, with its auto-configurations.
	 * @return the configuration class
	 */
	protected abstract Class<?> storeConfiguration();

	/**
	 * The properties that select the store, unique to the test class.
	 * @return the properties
	 */
	protected abstract String[] storeProperties();

	@BeforeEach
	void resetCounters() {
		TwoInstancesApplication.reset();
	}

	@AfterEach
	void stopInstances() {
		TwoInstancesApplication.release.countDown();
		for (ConfigurableApplicationContext instance : this.instances) {
			instance.close();
		}
	}

	@Test
	void everyRunSubmittedToOneInstanceIsExecutedExactlyOnceAcrossBoth() {
		ConfigurableApplicationContext a = start("A");
		ConfigurableApplicationContext b = start("B");
		// a turn waits until the other instance began one: both execute runs, deterministically
		TwoInstancesApplication.WAIT_FOR_OTHER.set(true);
		int count = 200;
		Runs runs = a.getBean(Runs.class);
		List<Run> submitted = Flux.range(0, count)
			.flatMap((i) -> runs.submit(RunRequest.of("agent", "assistant", "load-" + i,
					AgentJson.mapper().createObjectNode().put("message", "job-" + i))), 16)
			.collectList()
			.block(TIMEOUT);
		assertThat(submitted).hasSize(count).allSatisfy((run) -> assertThat(run.status()).isEqualTo(RunStatus.QUEUED));

		List<Run> ended = awaitFinal(b.getBean(Runs.class), submitted.stream().map(Run::id).toList());
		assertThat(ended).allSatisfy((run) -> {
			assertThat(run.status()).as("run %s", run.id()).isEqualTo(RunStatus.COMPLETED);
			assertThat(run.attempts()).as("claims of run %s", run.id()).isOne();
			String message = run.request().input().path("message").asString();
			assertThat(run.result().path("output").asString()).isEqualTo("done: " + message);
		});
		Map<String, Queue<String>> turns = TwoInstancesApplication.TURNS;
		assertThat(turns).hasSize(count);
		assertThat(turns.values()).allSatisfy((instances) -> assertThat(instances).hasSize(1));
		Map<String, Long> byInstance = turns.values()
			.stream()
			.collect(Collectors.groupingBy(Queue::peek, Collectors.counting()));
		assertThat(byInstance).containsOnlyKeys("A", "B");
		assertThat(byInstance.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(count);
	}

	@Test
	void aRunExecutingOnOneInstanceStreamsFromTheOther() throws Exception {
		ConfigurableApplicationContext a = start("A");
		TwoInstancesApplication.BLOCK_FIRST_SECOND.set(true);
		Run run = submitSteps(a);
		awaitSecondTaskEntered();
		// B starts while the run executes on A: it cannot be B's
		ConfigurableApplicationContext b = start("B");

		List<ServerSentEvent<String>> events = new CopyOnWriteArrayList<>();
		Disposable stream = events(b, run.id(), null).subscribe(events::add);
		awaitSize(events, 4);
		TwoInstancesApplication.release.countDown();
		awaitLast(events, RunEvent.COMPLETED);
		stream.dispose();

		assertThat(events).extracting(ServerSentEvent::event)
			.containsExactly("run_started", "task_started", "task_completed", "task_started", "task_completed",
					"task_started", "task_completed", "completed");
		assertThat(events).extracting(ServerSentEvent::id).containsExactly(ids(1, 8));
		assertThat(TwoInstancesApplication.FIRST).containsExactly("A");
		assertThat(TwoInstancesApplication.SECOND).containsExactly("A");
		assertThat(TwoInstancesApplication.THIRD).containsExactly("A");
		// the last event is stored just before the status (docs/runs.md)
		Run done = awaitFinal(b.getBean(Runs.class), List.of(run.id())).get(0);
		assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);
		assertThat(done.result().asString()).isEqualTo("1:otters,2,3");
	}

	@Test
	void whenTheExecutingInstanceStopsTheOtherFinishesTheRunWithoutRerunningFinishedTasks() throws Exception {
		ConfigurableApplicationContext a = start("A");
		TwoInstancesApplication.BLOCK_FIRST_SECOND.set(true);
		Run run = submitSteps(a);
		awaitSecondTaskEntered();
		ConfigurableApplicationContext b = start("B");

		// A stops: its worker gives the run back to the queue, and B claims it
		a.close();
		Run done = awaitFinal(b.getBean(Runs.class), List.of(run.id())).get(0);

		assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);
		assertThat(done.result().asString()).isEqualTo("1:otters,2,3");
		assertThat(done.attempts()).isEqualTo(2);
		assertThat(TwoInstancesApplication.FIRST).containsExactly("A");
		assertThat(TwoInstancesApplication.SECOND).containsExactly("A", "B");
		assertThat(TwoInstancesApplication.THIRD).containsExactly("B");
		List<RunEvent> events = b.getBean(Runs.class).events(run.id(), 0).collectList().block(TIMEOUT);
		assertThat(events).extracting(RunEvent::type).containsSubsequence("run_started", "run_started").endsWith("completed");
		assertThat(events).extracting(RunEvent::sequence).containsExactly(
				LongStream.rangeClosed(1, events.size()).boxed().toArray(Long[]::new));
		// the second attempt read the first task from its checkpoint
		int secondStart = events.stream().map(RunEvent::type).toList().lastIndexOf("run_started");
		RunEvent firstAgain = events.get(secondStart + 1);
		assertThat(firstAgain.type()).isEqualTo("task_completed");
		assertThat(firstAgain.data().path("cached").asBoolean()).isTrue();
	}

	@Test
	void whenTheExecutingInstanceDiesTheOtherTakesTheRunOverAfterItsLease() throws Exception {
		// an instance that executes without a worker: its claim is never renewed, as if it died
		ConfigurableApplicationContext dead = start("dead", "agent.runs.worker.enabled=false");
		assertThat(dead.getBeansOfType(RunWorker.class)).isEmpty();
		TwoInstancesApplication.BLOCK_FIRST_SECOND.set(true);
		Run submitted = submitSteps(dead);
		RunStore store = dead.getBean(RunStore.class);
		List<Run> claimed = store
			.claim("dead-owner", new RunStore.ClaimSettings(10, Duration.ofSeconds(2), 1, 3))
			.collectList()
			.block(TIMEOUT);
		assertThat(claimed).extracting(Run::id).containsExactly(submitted.id());
		Disposable execution = dead.getBean(WorkflowRunExecutor.class)
			.execute(claimed.get(0))
			.subscribeOn(Schedulers.boundedElastic())
			.subscribe();
		try {
			awaitSecondTaskEntered();
			ConfigurableApplicationContext b = start("B");
			Run done = awaitFinal(b.getBean(Runs.class), List.of(submitted.id())).get(0);

			assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);
			assertThat(done.result().asString()).isEqualTo("1:otters,2,3");
			assertThat(done.attempts()).isEqualTo(2);
			assertThat(TwoInstancesApplication.FIRST).containsExactly("dead");
			assertThat(TwoInstancesApplication.SECOND).containsExactly("dead", "B");
			assertThat(TwoInstancesApplication.THIRD).containsExactly("B");
			// the dead owner lost the run: it can neither renew nor finish it
			assertThat(store.heartbeat(submitted.id(), "dead-owner", Duration.ofSeconds(2)).block(TIMEOUT))
				.isEqualTo(RunStore.Lease.LOST);
			assertThat(store.finish(submitted.id(), "dead-owner", RunOutcome.cancelled())
				.block(TIMEOUT)).isFalse();
			assertThat(b.getBean(Runs.class).get(submitted.id()).block(TIMEOUT).status())
				.isEqualTo(RunStatus.COMPLETED);
		}
		finally {
			execution.dispose();
		}
	}

	@Test
	void aClientReconnectingToTheOtherInstanceWithLastEventIdGetsEveryEventOnce() throws Exception {
		ConfigurableApplicationContext a = start("A");
		TwoInstancesApplication.BLOCK_FIRST_SECOND.set(true);
		Run run = submitSteps(a);
		awaitSecondTaskEntered();
		ConfigurableApplicationContext b = start("B");

		// read three events from B, then disconnect
		List<ServerSentEvent<String>> first = events(b, run.id(), null).take(3).collectList().block(TIMEOUT);
		assertThat(first).extracting(ServerSentEvent::id).containsExactly("1", "2", "3");
		// reconnect while the run still executes on A, then let it finish
		List<ServerSentEvent<String>> rest = new CopyOnWriteArrayList<>();
		Disposable stream = events(b, run.id(), "3").subscribe(rest::add);
		awaitSize(rest, 1);
		TwoInstancesApplication.release.countDown();
		awaitLast(rest, RunEvent.COMPLETED);
		stream.dispose();

		List<ServerSentEvent<String>> all = new ArrayList<>(first);
		all.addAll(rest);
		assertThat(all).extracting(ServerSentEvent::id).containsExactly(ids(1, 8));
		assertThat(all).extracting(ServerSentEvent::event)
			.containsExactly("run_started", "task_started", "task_completed", "task_started", "task_completed",
					"task_started", "task_completed", "completed");
		assertThat(TwoInstancesApplication.SECOND).containsExactly("A");
	}

	@Test
	void aCronScheduleOnBothInstancesFiresOncePerFireTime() {
		String[] schedule = { "agent.schedules.tick.agent=assistant", "agent.schedules.tick.cron=* * * * * *",
				"agent.schedules.tick.zone=UTC", "agent.schedules.tick.message=tick" };
		ConfigurableApplicationContext a = start("A", schedule);
		ConfigurableApplicationContext b = start("B", schedule);
		RunScheduler schedulerA = a.getBean(RunScheduler.class);
		RunScheduler schedulerB = b.getBean(RunScheduler.class);
		assertThat(schedulerA.isRunning()).isTrue();
		assertThat(schedulerB.isRunning()).isTrue();
		sleep(4000);
		schedulerA.stop();
		schedulerB.stop();
		// a submit under way when the schedulers stopped may still arrive
		sleep(500);

		Runs runs = b.getBean(Runs.class);
		List<Run> scheduled = runs.list("schedule-tick", 0, 100).collectList().block(TIMEOUT);
		List<Run> ended = awaitFinal(runs, scheduled.stream().map(Run::id).toList());
		// both instances ticked every second for four seconds: at least three fire times
		assertThat(ended).hasSizeGreaterThanOrEqualTo(3);
		List<String> keys = ended.stream().map((run) -> run.request().idempotencyKey()).toList();
		assertThat(keys).doesNotHaveDuplicates().allSatisfy((key) -> assertThat(key).startsWith("schedule:tick:"));
		assertThat(ended).allSatisfy((run) -> {
			assertThat(run.status()).isEqualTo(RunStatus.COMPLETED);
			assertThat(run.attempts()).isOne();
		});
		// and each run was executed once: one turn per fire time
		assertThat(TwoInstancesApplication.TURNS.get("tick")).hasSize(ended.size());
	}

	private ConfigurableApplicationContext start(String name, String... properties) {
		List<String> all = new ArrayList<>(List.of("server.port=0", "spring.main.banner-mode=off",
				"agent.web.enabled=true", "agent.runs.lease=2s", "agent.runs.heartbeat-interval=500ms",
				"agent.runs.poll-interval=200ms", "test.instance=" + name));
		all.addAll(List.of(storeProperties()));
		all.addAll(List.of(properties));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(TwoInstancesApplication.class,
				storeConfiguration())
			.web(WebApplicationType.REACTIVE)
			.properties(all.toArray(String[]::new))
			.run();
		this.instances.add(context);
		return context;
	}

	private static Run submitSteps(ConfigurableApplicationContext instance) {
		ObjectNode input = AgentJson.mapper().createObjectNode().put("topic", "otters");
		return instance.getBean(Runs.class)
			.submit(RunRequest.of("workflow", "steps", "steps-" + System.nanoTime(), input))
			.block(TIMEOUT);
	}

	private static void awaitSecondTaskEntered() throws InterruptedException {
		assertThat(TwoInstancesApplication.entered.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
			.as("the second task began")
			.isTrue();
	}

	private static Flux<ServerSentEvent<String>> events(ConfigurableApplicationContext instance, String runId,
			String lastEventId) {
		String port = instance.getEnvironment().getProperty("local.server.port");
		return WebClient.create("http://127.0.0.1:" + port)
			.get()
			.uri(STEPS_EVENTS.formatted(runId))
			.accept(MediaType.TEXT_EVENT_STREAM)
			.headers((headers) -> {
				if (lastEventId != null) {
					headers.set("Last-Event-ID", lastEventId);
				}
			})
			.retrieve()
			.bodyToFlux(new ParameterizedTypeReference<ServerSentEvent<String>>() {
			});
	}

	private static List<Run> awaitFinal(Runs runs, List<String> ids) {
		long deadline = System.nanoTime() + TIMEOUT.toNanos();
		while (true) {
			List<Run> found = Flux.fromIterable(ids).flatMapSequential(runs::get, 16).collectList().block(TIMEOUT);
			if (found.stream().allMatch((run) -> run.status().isFinal())) {
				return found;
			}
			if (System.nanoTime() > deadline) {
				throw new AssertionError("Runs not finished in " + TIMEOUT + ": " + found.stream()
					.filter((run) -> !run.status().isFinal())
					.map((run) -> run.id() + "=" + run.status())
					.toList());
			}
			sleep(100);
		}
	}

	private static void awaitSize(List<?> list, int size) {
		long deadline = System.nanoTime() + TIMEOUT.toNanos();
		while (list.size() < size) {
			assertThat(System.nanoTime()).as("%s events arrived", size).isLessThan(deadline);
			sleep(20);
		}
	}

	private static void awaitLast(List<ServerSentEvent<String>> events, String type) {
		long deadline = System.nanoTime() + TIMEOUT.toNanos();
		while (events.isEmpty() || !type.equals(events.get(events.size() - 1).event())) {
			assertThat(System.nanoTime()).as("the stream ended with %s: %s", type, events).isLessThan(deadline);
			sleep(20);
		}
	}

	private static String[] ids(int from, int to) {
		return LongStream.rangeClosed(from, to).mapToObj(Long::toString).toArray(String[]::new);
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
