package dev.agcore.autoconfigure.audit;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import javax.sql.DataSource;

import dev.agcore.audit.AuditListener;
import dev.agcore.audit.Auditor;
import dev.agcore.audit.jdbc.JdbcAuditSink;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.MemoryProperties;
import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryAutoConfiguration.JdbcMemoryDatabase;
import dev.agcore.autoconfigure.memory.jdbc.JdbcSchemaInitializer;

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
 * {@link JdbcAuditSink} when {@code agent.audit.jdbc.enabled=true}.
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
			AuditProperties properties) {
		List<AuditListener> all = listeners.orderedStream().toList();
		AuditListener listener = (event) -> {
			publisher.publishEvent(new AgentAuditEvent(event.agent(), event));
			all.forEach((each) -> each.onAuditEvent(event));
		};
		return Auditor.of(listener, atLeastOne("agent.audit.max-arguments-length", properties.getMaxArgumentsLength()),
				Clock.systemUTC());
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
			JdbcAuditSink sink = new JdbcAuditSink(database, prefix);
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

	}

}
