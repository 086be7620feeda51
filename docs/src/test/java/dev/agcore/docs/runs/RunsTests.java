package dev.agcore.docs.runs;

import java.time.Duration;
import java.util.Map;

import dev.agcore.autoconfigure.run.Runs;
import dev.agcore.docs.support.Services;
import dev.agcore.docs.support.SnippetContexts;
import dev.agcore.run.Run;
import dev.agcore.run.RunStatus;
import dev.agcore.run.RunStore;
import dev.agcore.run.redis.RedisRunStore;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.workflow.Workflow;
import org.junit.jupiter.api.Test;

import org.springframework.core.env.MapPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/** The snippets of docs/runs.md: the Java API, the schedules and the Redis store. */
class RunsTests {

	private static final Workflow CRM_SYNC = Workflow.of("crm-sync",
			(context, input) -> "synced " + input.path("source").asString());

	@Test
	void reportsSubmitsOneRunPerIdempotencyKeyAndItCompletes() throws InterruptedException {
		SnippetContexts.yaml("runs/schedules.yml")
			.withUserConfiguration(Reports.class)
			.withBean("crmSync", Workflow.class, () -> CRM_SYNC)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(AgentRegistry.class).find("assistant")).isPresent();
				Reports reports = context.getBean(Reports.class);
				Run run = reports.summarise("s1").block(Duration.ofSeconds(10));
				assertThat(reports.summarise("s1").block(Duration.ofSeconds(10)).id()).isEqualTo(run.id());
				Runs runs = context.getBean(Runs.class);
				Run done = run;
				for (int i = 0; i < 100 && !done.status().isFinal(); i++) {
					Thread.sleep(100);
					done = runs.get(run.id()).block(Duration.ofSeconds(10));
				}
				assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);
				assertThat(reports.follow(run.id(), 0).collectList().block(Duration.ofSeconds(10))).isNotEmpty();
			});
	}

	@Test
	void theRedisStoreHoldsTheRuns() {
		Services.requireRedis();
		SnippetContexts.yaml("runs/redis.yml")
			// the snippet's host is the reader's; the test's Redis is local
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("local redis", Map.of("spring.data.redis.host", "127.0.0.1"))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RunStore.class)).isInstanceOf(RedisRunStore.class);
			});
	}

}
