package dev.agcore.docs.memory;

import java.time.Duration;

import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.redis.RedisConversationStore;
import dev.agcore.memory.redis.RedisKeyValueStore;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

/** The Redis stores without Spring Boot, from docs/memory.md. */
class RedisStores {

	static Agent assistant(ChatModel model) {
		// tag::redis[]
		LettuceConnectionFactory factory = new LettuceConnectionFactory("localhost", 6379);
		factory.afterPropertiesSet();
		factory.start();
		ReactiveStringRedisTemplate redis = new ReactiveStringRedisTemplate(factory);

		ConversationStore conversations = new RedisConversationStore(redis, "agent:", 0 /* no session limit */,
				1000, Duration.ofDays(30), Duration.ofMinutes(10));
		KeyValueStore memory = new RedisKeyValueStore(redis, "agent:", 10_000, Duration.ZERO);

		Agent agent = Agent.builder().name("assistant").model(model).conversationStore(conversations).build();
		// end::redis[]
		return agent;
	}

}
