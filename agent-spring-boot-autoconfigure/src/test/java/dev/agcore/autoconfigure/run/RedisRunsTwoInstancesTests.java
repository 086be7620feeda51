package dev.agcore.autoconfigure.run;

import java.time.Duration;
import java.util.UUID;

import dev.agcore.autoconfigure.LocalServices;
import dev.agcore.autoconfigure.memory.redis.RedisMemoryAutoConfiguration;
import dev.agcore.autoconfigure.run.redis.RedisRunStoreAutoConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.ScanOptions;

/**
 * Background runs on two application instances sharing one Redis (127.0.0.1:6379) under
 * a key prefix of their own, whose keys are deleted afterwards. Skipped when Redis is not
 * running, failed on CI.
 */
class RedisRunsTwoInstancesTests extends AbstractRunsTwoInstancesTests {

	private static final String PREFIX = "agcore-test:runs2-" + UUID.randomUUID().toString().substring(0, 8) + ":";

	@BeforeAll
	static void requireRedis() {
		LocalServices.require("Redis", 6379);
	}

	@AfterAll
	static void deleteKeys() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					DataRedisReactiveAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=6379")
			.run((context) -> {
				ReactiveStringRedisTemplate redis = context.getBean(ReactiveStringRedisTemplate.class);
				redis.scan(ScanOptions.scanOptions().match(PREFIX + "*").count(1000).build())
					.flatMap(redis::delete)
					.then()
					.block(Duration.ofSeconds(30));
			});
	}

	@Override
	protected Class<?> storeConfiguration() {
		return RedisStore.class;
	}

	@Override
	protected String[] storeProperties() {
		return new String[] { "agent.memory.store=redis", "agent.memory.redis.key-prefix=" + PREFIX,
				"spring.data.redis.host=127.0.0.1", "spring.data.redis.port=6379" };
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, DataRedisReactiveAutoConfiguration.class,
			RedisMemoryAutoConfiguration.class, RedisRunStoreAutoConfiguration.class })
	static class RedisStore {

	}

}
