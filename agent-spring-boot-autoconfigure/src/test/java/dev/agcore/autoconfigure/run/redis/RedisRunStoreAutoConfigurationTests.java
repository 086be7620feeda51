package dev.agcore.autoconfigure.run.redis;

import java.time.Duration;

import dev.agcore.autoconfigure.LocalServices;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.redis.RedisMemoryAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.run.Run;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStore;
import dev.agcore.run.redis.RedisRunStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.ScanOptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * Tests for {@link RedisRunStoreAutoConfiguration}, against the local Redis.
 */
class RedisRunStoreAutoConfigurationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final String HOST = "127.0.0.1";

	private static final int PORT = 6379;

	private static final String PREFIX = "agcore-test:runs-autoconfig:" + ProcessHandle.current().pid() + ":";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
				DataRedisReactiveAutoConfiguration.class, RedisMemoryAutoConfiguration.class,
				RedisRunStoreAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.host=" + HOST, "spring.data.redis.port=" + PORT,
				"agent.memory.redis.key-prefix=" + PREFIX);

	@BeforeAll
	static void requireRedis() {
		// as RedisAvailability: fail on CI, skip elsewhere
		LocalServices.require("Redis", PORT);
	}

	@AfterAll
	static void deleteKeys() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					DataRedisReactiveAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=" + HOST, "spring.data.redis.port=" + PORT)
			.run((context) -> {
				ReactiveStringRedisTemplate redis = context.getBean(ReactiveStringRedisTemplate.class);
				redis.scan(ScanOptions.scanOptions().match(PREFIX + "*").build())
					.flatMap(redis::delete)
					.then()
					.block(TIMEOUT);
			});
	}

	@Test
	void createsTheRedisRunStoreUnderTheMemoryKeyPrefix() {
		this.contextRunner.withPropertyValues("agent.memory.store=redis").run((context) -> {
			assertThat(context).hasSingleBean(RunStore.class);
			RunStore store = context.getBean(RunStore.class);
			assertThat(store).isInstanceOf(RedisRunStore.class);
			Run run = store
				.submit(RunRequest.of("agent", "assistant", "s", AgentJson.mapper().readTree("{\"message\":\"hi\"}")))
				.block(TIMEOUT);
			ReactiveStringRedisTemplate redis = context.getBean(ReactiveStringRedisTemplate.class);
			assertThat(redis.hasKey(PREFIX + "{runs}:run:" + run.id()).block(TIMEOUT)).isTrue();
		});
	}

	@Test
	void backsOffUnlessRedisIsTheStore() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(RunStore.class));
		this.contextRunner.withPropertyValues("agent.memory.store=jdbc")
			.run((context) -> assertThat(context).doesNotHaveBean(RedisRunStoreAutoConfiguration.class));
	}

	@Test
	void userRunStoreWins() {
		RunStore mine = mock(RunStore.class);
		this.contextRunner.withPropertyValues("agent.memory.store=redis")
			.withBean(RunStore.class, () -> mine)
			.run((context) -> assertThat(context.getBean(RunStore.class)).isSameAs(mine));
	}

	@Test
	void withoutAReactiveConnectionStartupFailsNamingWhatToConfigure() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RedisRunStoreAutoConfiguration.class))
			.withPropertyValues("agent.memory.store=redis")
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable failure = context.getStartupFailure();
				while (failure.getCause() != null && !(failure instanceof AgentConfigurationException)) {
					failure = failure.getCause();
				}
				assertThat(failure).isInstanceOf(AgentConfigurationException.class)
					.hasMessageContaining("agent.memory.store is 'redis'");
				assertThat(((AgentConfigurationException) failure).getAction()).contains("spring.data.redis.host");
			});
	}

}
