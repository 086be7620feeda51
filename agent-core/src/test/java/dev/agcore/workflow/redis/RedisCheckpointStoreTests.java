package dev.agcore.workflow.redis;

import java.time.Duration;
import java.util.UUID;

import dev.agcore.memory.ServiceAvailability;
import dev.agcore.workflow.CheckpointStore;
import dev.agcore.workflow.CheckpointStoreContract;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

class RedisCheckpointStoreTests extends CheckpointStoreContract {

	private final String prefix = "wfc-" + UUID.randomUUID().toString().substring(0, 8) + ":";

	private LettuceConnectionFactory factory;

	private ReactiveStringRedisTemplate redis;

	@Override
	protected CheckpointStore store() {
		ServiceAvailability.require("Redis", "127.0.0.1", 6379);
		this.factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", 6379));
		this.factory.afterPropertiesSet();
		this.factory.start();
		this.redis = new ReactiveStringRedisTemplate(this.factory);
		return new RedisCheckpointStore(this.redis, this.prefix, ttl());
	}

	@Override
	protected Duration ttl() {
		return Duration.ofMillis(800);
	}

	@Override
	protected void passTimeToLive() throws InterruptedException {
		Thread.sleep(ttl().toMillis() + 400);
	}

	@Override
	protected void writeNewerFormat(String runId) {
		this.redis.opsForHash()
			.put(this.prefix + "checkpoint:{" + runId + "}", "format", "2")
			.block(Duration.ofSeconds(5));
	}

	@Test
	void writesRenewTheExpiryOfTheRunsHash() {
		CheckpointStore store = store();
		store.saveTask("run-x", "a#0", json("a")).block(Duration.ofSeconds(5));
		Duration expiry = this.redis.getExpire(this.prefix + "checkpoint:{run-x}").block(Duration.ofSeconds(5));
		assertThat(expiry).isPositive().isLessThanOrEqualTo(ttl());
	}

	@AfterEach
	void cleanUp() {
		if (this.redis != null) {
			this.redis.keys(this.prefix + "*").flatMap(this.redis::delete).then().block(Duration.ofSeconds(5));
			this.factory.destroy();
		}
	}

}
