package dev.agcore.audit;

import java.time.Clock;
import java.util.Objects;
import java.util.function.UnaryOperator;

import dev.agcore.middleware.builtin.PiiRedactor;
import dev.agcore.support.LogSafe;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes {@link AuditEvent}s safe and hands them to an {@link AuditListener}: secret values
 * a call resolved are put back as their references, personal data (the detectors of
 * {@link dev.agcore.middleware.builtin.PiiRedactionMiddleware}) is replaced by
 * placeholders, and arguments are cut to a bound, all before the listener sees them. A
 * listener that throws is logged, never the turn's failure.
 *
 * @since 0.1.0
 */
public final class Auditor {

	/** Default bound on the arguments of one event, in characters. */
	public static final int DEFAULT_MAX_ARGUMENTS_LENGTH = 2000;

	/** Bound on the detail of one event, in characters. */
	static final int MAX_DETAIL_LENGTH = 500;

	/** Publishes nothing and redacts nothing: the default of an agent without a listener. */
	public static final Auditor NONE = new Auditor(AuditListener.NONE, DEFAULT_MAX_ARGUMENTS_LENGTH,
			Clock.systemUTC(), AuditGate.OPEN);

	private static final Logger logger = LoggerFactory.getLogger(Auditor.class);

	private final AuditListener listener;

	private final int maxArgumentsLength;

	private final Clock clock;

	private final AuditGate gate;

	private Auditor(AuditListener listener, int maxArgumentsLength, Clock clock, AuditGate gate) {
		this.listener = listener;
		this.maxArgumentsLength = maxArgumentsLength;
		this.clock = clock;
		this.gate = gate;
	}

	/**
	 * Create an auditor.
	 * @param listener told every event
	 * @param maxArgumentsLength the most characters of arguments an event holds, at least 1
	 * @param clock the time of events
	 * @return the auditor
	 */
	public static Auditor of(AuditListener listener, int maxArgumentsLength, Clock clock) {
		Objects.requireNonNull(listener, "'listener' must not be null");
		Objects.requireNonNull(clock, "'clock' must not be null");
		if (maxArgumentsLength < 1) {
			throw new IllegalArgumentException("'maxArgumentsLength' must be at least 1, was " + maxArgumentsLength);
		}
		return (listener == AuditListener.NONE) ? NONE
				: new Auditor(listener, maxArgumentsLength, clock, AuditGate.OPEN);
	}

	/**
	 * Return an auditor like this one that lets no tool run while a gate is closed, such as
	 * an {@link dev.agcore.audit.outbox.AuditOutbox} that is full: an action the trail could
	 * not record does not happen.
	 * @param gate asked before each tool call
	 * @return the auditor
	 */
	public Auditor withGate(AuditGate gate) {
		Objects.requireNonNull(gate, "'gate' must not be null");
		return (this == NONE) ? NONE : new Auditor(this.listener, this.maxArgumentsLength, this.clock, gate);
	}

	/**
	 * Return why the audit trail cannot take the record of an action now, or {@code null}
	 * when it can. Callers refuse the action (a tool call) when it cannot.
	 * @return the reason, or {@code null}
	 */
	public @Nullable String refusal() {
		try {
			return this.gate.refusal();
		}
		catch (RuntimeException ex) {
			// a gate that cannot say must not let an unrecorded action through
			logger.warn("Audit gate failed", ex);
			return "the audit trail could not tell whether it can record the call";
		}
	}

	/**
	 * Create an auditor with the default bound and the system clock.
	 * @param listener told every event
	 * @return the auditor
	 */
	public static Auditor of(AuditListener listener) {
		return of(listener, DEFAULT_MAX_ARGUMENTS_LENGTH, Clock.systemUTC());
	}

	/**
	 * Return whether events go anywhere, so that callers need not build them otherwise.
	 * @return whether there is a listener
	 */
	public boolean isEnabled() {
		return this != NONE;
	}

	/**
	 * Redact an event's texts and publish it.
	 * @param kind what happened
	 * @param agent the agent
	 * @param sessionId the session
	 * @param userId the principal, or {@code null}
	 * @param tool the tool, or {@code null}
	 * @param toolCallId the call, or {@code null}
	 * @param arguments the arguments as sent, before redaction; empty for none
	 * @param secrets puts secret references back in place of the values the call resolved
	 * @param outcome how it ended
	 * @param detail a short reason, before redaction; empty for none
	 */
	public void publish(AuditEvent.Kind kind, String agent, String sessionId, @Nullable String userId,
			@Nullable String tool, @Nullable String toolCallId, String arguments, UnaryOperator<String> secrets,
			String outcome, String detail) {
		if (!isEnabled()) {
			return;
		}
		AuditEvent event;
		try {
			event = new AuditEvent(kind, agent, sessionId, userId, tool, toolCallId,
					redact(arguments, secrets, this.maxArgumentsLength), outcome,
					redact(detail, secrets, MAX_DETAIL_LENGTH), this.clock.instant());
		}
		catch (RuntimeException ex) {
			logger.warn("Audit event of agent '{}' could not be made: {}", LogSafe.text(agent),
					LogSafe.text(ex.toString()));
			return;
		}
		try {
			this.listener.onAuditEvent(event);
		}
		catch (RuntimeException ex) {
			// the audit trail is told; the turn goes on
			logger.warn("Audit listener failed for a {} event of agent '{}'", kind, LogSafe.text(agent),
					LogSafe.throwable(ex));
		}
	}

	/** Secrets first (their values may look like nothing PII knows), then personal data, then the bound. */
	static String redact(String text, UnaryOperator<String> secrets, int max) {
		if (text.isEmpty()) {
			return text;
		}
		String redacted = PiiRedactor.all().redact(secrets.apply(text));
		if (redacted.length() <= max) {
			return redacted;
		}
		int end = max;
		if (Character.isHighSurrogate(redacted.charAt(end - 1))) {
			end--;
		}
		return redacted.substring(0, end) + "…[" + (redacted.length() - end) + " more characters]";
	}

}
