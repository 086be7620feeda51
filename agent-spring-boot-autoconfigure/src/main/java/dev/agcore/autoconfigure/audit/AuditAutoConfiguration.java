package dev.agcore.autoconfigure.audit;

import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

import javax.sql.DataSource;

import dev.agcore.audit.AuditListener;
import dev.agcore.audit.AuditSink;
import dev.agcore.audit.Auditor;
import dev.agcore.audit.jdbc.JdbcAuditSink;
import dev.agcore.audit.outbox.AuditOutbox;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.MemoryProperties;
import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryAutoConfiguration.JdbcMemoryDatabase;
import dev.agcore.autoconfigure.memory.jdbc.JdbcSchemaInitializer;
import dev.agcore.autoconfigure.support.PropertyChecks;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static dev.agcore.autoconfigure.support.PropertyChecks.atLeastOne;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the audit trail: the
 * {@link Auditor} of every configured agent publishes each event, redacted, as an
 * {@link AgentAuditEvent} and to every {@link AuditListener} bean, including the
 * {@link JdbcAuditSink} when {@code agent.audit.jdbc.enabled=true}, which is written
 * through an {@link AuditOutbox} (a journal on the local disk, drained with retries) so
 * that an event survives an outage of the database and a crash of the instance.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnBooleanProperty(name = "agent.audit.enabled", matchIfMissing = true)
@EnableConfigurationProperties({ AuditProperties.class, MemoryProperties.class })
public final class AuditAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	Auditor agentAuditor(ApplicationEventPublisher publisher, ObjectProvider<AuditListener> listeners,
			ObjectProvider<AuditOutbox> outbox, AuditProperties properties) {
		AuditOutbox durable = outbox.getIfUnique();
		// a sink the outbox drains is told through it, not also directly
		List<AuditListener> all = listeners.orderedStream()
			.filter((listener) -> durable == null || !(listener instanceof AuditSink))
			.toList();
		AuditListener listener = (event) -> {
			publisher.publishEvent(new AgentAuditEvent(event.agent(), event));
			all.forEach((each) -> each.onAuditEvent(event));
		};
		Auditor auditor = Auditor.of(listener,
				atLeastOne("agent.audit.max-arguments-length", properties.getMaxArgumentsLength()), Clock.systemUTC());
		// a full outbox refuses tool calls: an action the trail could not record does not happen
		return (durable != null) ? auditor.withGate(durable) : auditor;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(EmbeddedDatabaseConnection.class)
	@ConditionalOnBooleanProperty("agent.audit.jdbc.enabled")
	static class JdbcAuditConfiguration {

		// not checked at startup beyond its creation: an audit write that fails is logged
		private static final JdbcSchemaInitializer SCHEMA = JdbcSchemaInitializer.withScripts(JdbcAuditSink.SCHEMA,
				"audit", null);

		@Bean
		@ConditionalOnMissingBean
		JdbcAuditSink jdbcAuditSink(ObjectProvider<DataSource> dataSource, MemoryProperties memory,
				AuditProperties properties) {
			DataSource database = dataSource.getIfUnique();
			if (database == null) {
				throw new AgentConfigurationException(
						"agent.audit.jdbc.enabled is true but the application has no single DataSource",
						"Configure spring.datasource.url, or set agent.audit.jdbc.enabled to false.");
			}
			String prefix = memory.getJdbc().getTablePrefix();
			SCHEMA.initialize(new JdbcMemoryDatabase(database, prefix), memory.getJdbc());
			JdbcAuditSink sink = new JdbcAuditSink(database, prefix).chain(properties.isChain());
			Duration retention = properties.getJdbc().getRetention();
			if (retention == null) {
				return sink;
			}
			if (retention.isNegative() || retention.isZero()) {
				throw new AgentConfigurationException("agent.audit.jdbc.retention must be positive, was " + retention,
						"Set agent.audit.jdbc.retention to how long audit rows are kept (e.g. 90d), or leave it unset to keep them all.");
			}
			return sink.retention(retention, Clock.systemUTC());
		}

		@Bean
		@ConditionalOnMissingBean
		AuditOutbox auditOutbox(JdbcAuditSink sink, AuditProperties properties) {
			AuditProperties.Outbox outbox = properties.getOutbox();
			long maxBytes = outbox.getMaxBytes().toBytes();
			if (maxBytes < 1) {
				throw new AgentConfigurationException("agent.audit.outbox.max-bytes must be positive, was " + maxBytes,
						"Set agent.audit.outbox.max-bytes to how much the journal may hold while the audit table "
								+ "cannot be reached (e.g. 64MB).");
			}
			Duration min = PropertyChecks.positive("agent.audit.outbox.min-backoff", outbox.getMinBackoff());
			Duration max = PropertyChecks.positive("agent.audit.outbox.max-backoff", outbox.getMaxBackoff());
			if (max.compareTo(min) < 0) {
				throw new AgentConfigurationException(
						"agent.audit.outbox.max-backoff (" + max + ") is shorter than agent.audit.outbox.min-backoff ("
								+ min + ")",
						"Set agent.audit.outbox.max-backoff to at least agent.audit.outbox.min-backoff.");
			}
			if (outbox.getShutdownTimeout().isNegative()) {
				throw new AgentConfigurationException(
						"agent.audit.outbox.shutdown-timeout must not be negative, was " + outbox.getShutdownTimeout(),
						"Set agent.audit.outbox.shutdown-timeout to how long shutting down waits (e.g. 5s), or 0.");
			}
			try {
				return AuditOutbox.builder(outbox.getDirectory(), sink)
					.maxBytes(maxBytes)
					.batchSize(atLeastOne("agent.audit.outbox.batch-size", outbox.getBatchSize()))
					.backoff(min, max)
					.closeTimeout(outbox.getShutdownTimeout())
					.build();
			}
			catch (UncheckedIOException | IllegalStateException ex) {
				throw new AgentConfigurationException(ex.getMessage(),
						"Set agent.audit.outbox.directory to a writable directory of this instance alone, on storage "
								+ "that outlives it.");
			}
		}

	}

}
