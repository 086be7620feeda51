package dev.agcore.autoconfigure.memory.redis;

import java.time.Duration;
import java.util.List;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.redis.RedisConversationStore;
import dev.agcore.memory.redis.RedisKeyValueStore;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.UserMessage;
import org.junit.jupiter.api.AfterAll;
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
 * Tests for {@link RedisMemoryAutoConfiguration}, against the local Redis.
 */
class RedisMemoryAutoConfigurationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final String PREFIX = "agcore-test:redis-autoconfig:" + ProcessHandle.current().pid() + ":";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
				DataRedisReactiveAutoConfiguration.class, RedisMemoryAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.host=" + RedisAvailability.HOST,
				"spring.data.redis.port=" + RedisAvailability.PORT, "agent.memory.redis.key-prefix=" + PREFIX);

	@BeforeAll
	static void requireRedis() {
		RedisAvailability.require();
	}

	@AfterAll
	static void deleteKeys() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					DataRedisReactiveAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=" + RedisAvailability.HOST,
					"spring.data.redis.port=" + RedisAvailability.PORT)
			.run((context) -> {
				ReactiveStringRedisTemplate redis = context.getBean(ReactiveStringRedisTemplate.class);
				redis.scan(ScanOptions.scanOptions().match(PREFIX + "*").build())
					.flatMap(redis::delete)
					.then()
					.block(TIMEOUT);
			});
	}

	@Test
	void createsRedisStoresWhenAskedFor() {
		this.contextRunner.withPropertyValues("agent.memory.store=redis").run((context) -> {
			assertThat(context).hasSingleBean(ConversationStore.class).hasSingleBean(KeyValueStore.class);
			assertThat(context.getBean(ConversationStore.class)).isInstanceOf(RedisConversationStore.class);
			assertThat(context.getBean(KeyValueStore.class)).isInstanceOf(RedisKeyValueStore.class);
		});
	}

	@Test
	void keepsInMemoryStoresUnlessAskedFor() {
		this.contextRunner.run((context) -> {
			assertThat(context.getBean(ConversationStore.class)).isInstanceOf(InMemoryConversationStore.class);
			assertThat(context.getBean(KeyValueStore.class)).isInstanceOf(InMemoryKeyValueStore.class);
		});
	}

	@Test
	void boundsTheStoresFromPropertiesUnderTheKeyPrefix() {
		this.contextRunner
			.withPropertyValues("agent.memory.store=redis", "agent.memory.max-messages-per-session=2",
					"agent.memory.long-term.max-items-per-namespace=1", "agent.memory.session-ttl=1h")
			.run((context) -> {
				ConversationStore conversations = context.getBean(ConversationStore.class);
				conversations
					.append("s1", 0, List.of(new UserMessage("1"), AssistantMessage.of("2"), new UserMessage("3")))
					.block(TIMEOUT);
				assertThat(conversations.load("s1").block(TIMEOUT).messages()).containsExactly(AssistantMessage.of("2"),
						new UserMessage("3"));
				KeyValueStore values = context.getBean(KeyValueStore.class);
				values.put("ns", "a", AgentJson.mapper().readTree("1")).block(TIMEOUT);
				values.put("ns", "b", AgentJson.mapper().readTree("2")).block(TIMEOUT);
				assertThat(values.keys("ns").block(TIMEOUT)).containsExactly("b");

				ReactiveStringRedisTemplate redis = context.getBean(ReactiveStringRedisTemplate.class);
				String messages = PREFIX + "conv:{s1}:messages";
				assertThat(redis.opsForList().size(messages).block(TIMEOUT)).isEqualTo(2);
				assertThat(redis.getExpire(messages).block(TIMEOUT)).isBetween(Duration.ofMinutes(59),
						Duration.ofHours(1));
				assertThat(redis.opsForHash().size(PREFIX + "kv:{ns}:items").block(TIMEOUT)).isEqualTo(1);
			});
	}

	@Test
	void userStoresWin() {
		ConversationStore conversations = mock(ConversationStore.class);
		KeyValueStore values = mock(KeyValueStore.class);
		this.contextRunner.withPropertyValues("agent.memory.store=redis")
			.withBean(ConversationStore.class, () -> conversations)
			.withBean(KeyValueStore.class, () -> values)
			.run((context) -> {
				assertThat(context.getBean(ConversationStore.class)).isSameAs(conversations);
				assertThat(context.getBean(KeyValueStore.class)).isSameAs(values);
			});
	}

	@Test
	void withoutAReactiveConnectionStartupFailsNamingWhatToConfigure() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(RedisMemoryAutoConfiguration.class, ConversationStoreAutoConfiguration.class))
			.withPropertyValues("agent.memory.store=redis")
			.run((context) -> {
				assertThat(context).getFailure().rootCause().isInstanceOf(AgentConfigurationException.class);
				AgentConfigurationException failure = (AgentConfigurationException) rootCause(
						context.getStartupFailure());
				assertThat(failure.getMessage()).contains("agent.memory.store is 'redis'")
					.contains("ReactiveRedisConnectionFactory");
				assertThat(failure.getAction()).contains("spring.data.redis.host");
			});
	}

	@Test
	void invalidBoundsFailNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.memory.store=redis", "agent.memory.max-sessions=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.memory.max-sessions must be at least 1 (was 0)"));
		this.contextRunner.withPropertyValues("agent.memory.store=redis", "agent.memory.claim-timeout=-1s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.memory.claim-timeout must be positive (was PT-1S)"));
	}

	private static Throwable rootCause(Throwable ex) {
		Throwable root = ex;
		while (root.getCause() != null) {
			root = root.getCause();
		}
		return root;
	}

}
