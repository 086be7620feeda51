package dev.agcore.docs.middleware;

import java.util.concurrent.CopyOnWriteArrayList;

import dev.agcore.docs.middleware.AuditMiddleware.AuditLog;
import dev.agcore.middleware.AgentMiddleware;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/** The middleware beans of docs/middleware.md. */
@Configuration(proxyBeanMethods = false)
class MiddlewareConfiguration {

	@Bean
	AuditLog auditLog() {
		return new AuditLog(new CopyOnWriteArrayList<>());
	}

	// tag::bean[]
	@Bean
	@Order(10)
	AgentMiddleware auditMiddleware(AuditLog log) {
		return new AuditMiddleware(log);
	}
	// end::bean[]

}
