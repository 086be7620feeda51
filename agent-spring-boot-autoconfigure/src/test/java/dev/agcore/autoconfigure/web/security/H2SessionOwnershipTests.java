package dev.agcore.autoconfigure.web.security;

import java.util.List;
import java.util.UUID;

import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryAutoConfiguration;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Configuration;

/**
 * The ownership tests on the JDBC stores, on an in-memory H2 database.
 */
class H2SessionOwnershipTests extends AbstractSessionOwnershipTests {

	@Override
	protected Class<?> storeConfiguration() {
		return JdbcStore.class;
	}

	@Override
	protected List<String> storeProperties() {
		return List.of("agent.memory.store=jdbc", "agent.memory.jdbc.initialize-schema=always",
				"spring.datasource.url=jdbc:h2:mem:owners-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataSourceAutoConfiguration.class, JdbcMemoryAutoConfiguration.class })
	static class JdbcStore {

	}

}
