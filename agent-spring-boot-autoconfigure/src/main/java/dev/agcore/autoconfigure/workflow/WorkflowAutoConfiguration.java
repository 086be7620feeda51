package dev.agcore.autoconfigure.workflow;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.MemoryProperties;
import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryAutoConfiguration;
import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryAutoConfiguration.JdbcMemoryDatabase;
import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryPurger;
import dev.agcore.autoconfigure.memory.jdbc.JdbcSchemaInitializer;
import dev.agcore.autoconfigure.memory.redis.RedisMemoryAutoConfiguration;
import dev.agcore.runtime.CallerResolver;
import dev.agcore.workflow.CheckpointStore;
import dev.agcore.workflow.InMemoryCheckpointStore;
import dev.agcore.workflow.Workflow;
import dev.agcore.workflow.WorkflowEngine;
import dev.agcore.workflow.WorkflowRegistry;
import dev.agcore.workflow.WorkflowRunExecutor;
import dev.agcore.workflow.jdbc.JdbcCheckpointStore;
import dev.agcore.workflow.redis.RedisCheckpointStore;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

import static dev.agcore.autoconfigure.support.PropertyChecks.notNegative;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of durable workflows: every
 * {@code @Entrypoint} bean method and every {@link Workflow} bean in a
 * {@link WorkflowRegistry}, {@code @Task} bean methods checkpointed inside a running
 * workflow, a {@link WorkflowEngine}, the {@link WorkflowRunExecutor} of background runs,
 * and a {@link CheckpointStore} where {@code agent.memory.store} keeps memory (in memory,
 * the JDBC memory database, or Redis), kept for {@code agent.workflows.checkpoint-ttl}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { JdbcMemoryAutoConfiguration.class, RedisMemoryAutoConfiguration.class })
@EnableConfigurationProperties({ WorkflowProperties.class, MemoryProperties.class })
public final class WorkflowAutoConfiguration {

	// static: a post-processor must not make this configuration's beans early
	@Bean
	static TaskBeanPostProcessor workflowTaskBeanPostProcessor() {
		return new TaskBeanPostProcessor();
	}

	@Bean
	@ConditionalOnMissingBean
	CheckpointStore checkpointStore(WorkflowProperties properties) {
		return new InMemoryCheckpointStore(ttl(properties), Clock.systemUTC());
	}

	@Bean
	@ConditionalOnMissingBean
	WorkflowRegistry workflowRegistry(ListableBeanFactory beanFactory, ObjectProvider<Workflow> workflows) {
		List<Workflow> all = new ArrayList<>(workflows.orderedStream().toList());
		all.addAll(EntrypointWorkflows.find(beanFactory));
		try {
			return new WorkflowRegistry(all);
		}
		catch (IllegalArgumentException ex) {
			throw new AgentConfigurationException(ex.getMessage(),
					"Rename one of them (@Entrypoint(name = ...) or Workflow.of(name, ...)).");
		}
	}

	@Bean
	@ConditionalOnMissingBean
	WorkflowEngine workflowEngine(WorkflowRegistry registry, CheckpointStore store) {
		return new WorkflowEngine(registry, store);
	}

	@Bean
	@ConditionalOnMissingBean
	WorkflowRunExecutor workflowRunExecutor(WorkflowEngine engine, ObjectProvider<CallerResolver> callers) {
		return new WorkflowRunExecutor(engine, callers.getIfUnique(() -> CallerResolver.NONE).secured());
	}

	private static Duration ttl(WorkflowProperties properties) {
		return notNegative("agent.workflows.checkpoint-ttl", properties.getCheckpointTtl());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.jdbc.core.simple.JdbcClient")
	@ConditionalOnProperty(name = "agent.memory.store", havingValue = "jdbc")
	@ConditionalOnBean(JdbcMemoryDatabase.class)
	static class JdbcCheckpointStoreConfiguration {

		// the tables are not checked at startup: applications without workflows need not create them
		private static final JdbcSchemaInitializer SCHEMA = JdbcSchemaInitializer
			.withScripts(JdbcCheckpointStore.SCHEMA, "checkpoint", null);

		@Bean
		@ConditionalOnMissingBean(CheckpointStore.class)
		JdbcCheckpointStore jdbcCheckpointStore(JdbcMemoryDatabase database, MemoryProperties memory,
				WorkflowProperties properties) {
			SCHEMA.initialize(database, memory.getJdbc());
			return new JdbcCheckpointStore(database.dataSource(), database.tablePrefix(), ttl(properties),
					Clock.systemUTC());
		}

		/** Expired checkpoints go with the memory stores' purge, every agent.memory.jdbc.purge-interval. */
		@Bean
		@ConditionalOnBean(JdbcCheckpointStore.class)
		JdbcMemoryPurger.Purge jdbcCheckpointPurge(JdbcCheckpointStore store) {
			return new JdbcMemoryPurger.Purge("workflow checkpoints", store::purgeExpired);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(ReactiveStringRedisTemplate.class)
	@ConditionalOnProperty(name = "agent.memory.store", havingValue = "redis")
	@ConditionalOnBean(ReactiveRedisConnectionFactory.class)
	static class RedisCheckpointStoreConfiguration {

		@Bean
		@ConditionalOnMissingBean(CheckpointStore.class)
		RedisCheckpointStore redisCheckpointStore(ReactiveRedisConnectionFactory connectionFactory, MemoryProperties memory,
				WorkflowProperties properties) {
			return new RedisCheckpointStore(new ReactiveStringRedisTemplate(connectionFactory),
					memory.getRedis().getKeyPrefix(), ttl(properties));
		}

	}

}
