package dev.agcore.autoconfigure.memory;

import java.time.Duration;
import java.util.UUID;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryAutoConfiguration;
import dev.agcore.memory.InMemoryBytes;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.SessionOwners;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for the {@link SessionOwners} of {@link ConversationStoreAutoConfiguration} and
 * {@link SessionOwnerStore}: exactly one store, an owner that does not go before its
 * conversation, and one cap of the bytes the in-memory stores hold.
 */
class SessionOwnerStoreTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ConversationStoreAutoConfiguration.class));

	@Test
	void ownersAreKeptInTheOneKeyValueStore() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(SessionOwners.class);
			context.getBean(SessionOwners.class).claim("s1", "alice").block(TIMEOUT);
			assertThat(context.getBean(KeyValueStore.class).get(SessionOwners.NAMESPACE_PREFIX + "s1", "owner")
				.block(TIMEOUT)
				.asString()).isEqualTo("alice");
		});
	}

	@Test
	void severalKeyValueStoresWithoutAPrimaryOneFailStartupNamingPrimary() {
		this.contextRunner.withBean("one", KeyValueStore.class, InMemoryKeyValueStore::new)
			.withBean("two", KeyValueStore.class, InMemoryKeyValueStore::new)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(AgentConfigurationException.class)
					.hasMessage("Session owners need exactly one KeyValueStore, and there are 2: "
							+ "[InMemoryKeyValueStore, InMemoryKeyValueStore]");
				assertThat(((AgentConfigurationException) rootCause(context.getStartupFailure())).getAction())
					.contains("@Primary");
			});
	}

	@Test
	void thePrimaryKeyValueStoreKeepsTheOwners() {
		InMemoryKeyValueStore primary = new InMemoryKeyValueStore();
		InMemoryKeyValueStore other = new InMemoryKeyValueStore();
		this.contextRunner.withBean("other", KeyValueStore.class, () -> other)
			.withBean("primary", KeyValueStore.class, () -> primary, (definition) -> definition.setPrimary(true))
			.run((context) -> {
				context.getBean(SessionOwners.class).claim("s1", "alice").block(TIMEOUT);
				assertThat(primary.keys(SessionOwners.NAMESPACE_PREFIX + "s1").block(TIMEOUT)).containsExactly("owner");
				assertThat(other.keys(SessionOwners.NAMESPACE_PREFIX + "s1").block(TIMEOUT)).isEmpty();
			});
	}

	@Test
	void noKeyValueStoreFailsNamingWhatToDefine() {
		DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
		assertThatExceptionOfType(AgentConfigurationException.class)
			.isThrownBy(() -> SessionOwnerStore.owners(beans.getBeanProvider(SessionOwners.class),
					beans.getBeanProvider(KeyValueStore.class)))
			.withMessage("Session owners need a KeyValueStore bean, and there is none")
			.satisfies((ex) -> assertThat(ex.getAction()).contains("agent.memory.store"));
		assertThatExceptionOfType(AgentConfigurationException.class)
			.isThrownBy(() -> SessionOwnerStore.require(beans.getBeanProvider(KeyValueStore.class), "A2A task records"))
			.withMessage("A2A task records need a KeyValueStore bean, and there is none");
	}

	@Test
	void anOwnerTimeToLiveShorterThanTheSessionsFailsNamingBoth() {
		this.contextRunner.withPropertyValues("agent.memory.long-term.ttl=1h").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageStartingWith("agent.memory.long-term.ttl (PT1H) is shorter than agent.memory.session-ttl "
						+ "(PT720H)");
		});
		this.contextRunner.withPropertyValues("agent.memory.long-term.ttl=1h", "agent.memory.session-ttl=0")
			.run((context) -> assertThat(context).hasFailed());
	}

	@Test
	void anOwnerTimeToLiveAtLeastTheSessionsOrNoneStarts() {
		this.contextRunner.withPropertyValues("agent.memory.long-term.ttl=2h", "agent.memory.session-ttl=2h")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(SessionOwners.class));
		this.contextRunner.withPropertyValues("agent.memory.session-ttl=1h")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(SessionOwners.class));
	}

	@Test
	void ownersInMemoryBesideConversationsInADatabaseFailStartup() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					JdbcMemoryAutoConfiguration.class, ConversationStoreAutoConfiguration.class))
			.withPropertyValues("agent.memory.store=jdbc",
					"spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1")
			.withBean(KeyValueStore.class, InMemoryKeyValueStore::new)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(AgentConfigurationException.class)
					.hasMessageContaining("but session owners in memory");
			});
	}

	@Test
	void bothInMemoryStoresShareOneCap() {
		this.contextRunner.run((context) -> {
			InMemoryBytes bytes = context.getBean(InMemoryBytes.class);
			assertThat(bytes.maxBytes()).isEqualTo(InMemoryBytes.defaultMaxBytes());
			assertThat(context.getBean(InMemoryConversationStore.class).bytes()).isSameAs(bytes);
			assertThat(context.getBean(InMemoryKeyValueStore.class).bytes()).isSameAs(bytes);
		});
		this.contextRunner.withPropertyValues("agent.memory.in-memory.max-bytes=16MB")
			.run((context) -> assertThat(context.getBean(InMemoryBytes.class).maxBytes())
				.isEqualTo(16L * 1024 * 1024));
	}

	@Test
	void aCapTooSmallFailsNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.memory.in-memory.max-bytes=1KB").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageStartingWith("agent.memory.in-memory.max-bytes is 1024B");
		});
	}

	private static Throwable rootCause(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

}
