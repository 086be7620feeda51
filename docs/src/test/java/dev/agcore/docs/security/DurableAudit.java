package dev.agcore.docs.security;

// tag::outbox[]
import java.nio.file.Path;

import javax.sql.DataSource;

import dev.agcore.audit.Auditor;
import dev.agcore.audit.jdbc.AuditChainVerification;
import dev.agcore.audit.jdbc.JdbcAuditSink;
import dev.agcore.audit.outbox.AuditOutbox;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;

class DurableAudit {

    static Agent audited(ChatModel model, DataSource dataSource) {
        JdbcAuditSink sink = new JdbcAuditSink(dataSource, "agent_").chain(true);
        AuditOutbox outbox = AuditOutbox.builder(Path.of("/var/lib/myapp/audit-outbox"), sink).build();
        return Agent.builder()
            .name("support")
            .model(model)
            // journaled on disk, then stored once; a full outbox keeps tools from running
            .auditor(Auditor.of(outbox).withGate(outbox))
            .build();
    }

    static boolean untampered(JdbcAuditSink sink) {
        AuditChainVerification verification = sink.verify();
        return verification.intact();
    }

}
// end::outbox[]
