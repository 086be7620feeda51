package dev.agcore.autoconfigure.actuate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.agcore.runtime.TurnSummary;
import dev.agcore.runtime.TurnSummaryListener;
import org.jspecify.annotations.Nullable;

/**
 * What this instance saw of the sessions of each agent since it started, for the
 * operators' view {@code /actuator/agents/{agent}/sessions}: per session only the time
 * of its last turn and how that turn ended, never its id in the view nor any content.
 * At most {@value #MAX_SESSIONS} sessions per agent are kept, the least recently active
 * forgotten first; turns of other instances are not seen.
 *
 * @since 0.1.0
 */
public final class AgentSessionActivity implements TurnSummaryListener {

	/** The most sessions kept per agent. */
	public static final int MAX_SESSIONS = 10_000;

	private final Clock clock;

	private final Instant since;

	private final Map<String, Activity> agents = new ConcurrentHashMap<>();

	public AgentSessionActivity() {
		this(Clock.systemUTC());
	}

	AgentSessionActivity(Clock clock) {
		this.clock = clock;
		this.since = clock.instant();
	}

	@Override
	public void onTurnFinished(TurnSummary summary) {
		this.agents.computeIfAbsent(summary.agent(), (name) -> new Activity())
			.record(summary.sessionId(), summary.outcome(), this.clock.instant());
	}

	/**
	 * Return what was seen of an agent's sessions.
	 * @param agent the agent's name
	 * @return the view
	 */
	public SessionsDescriptor describe(String agent) {
		Activity activity = this.agents.get(agent);
		Instant now = this.clock.instant();
		return (activity != null) ? activity.describe(agent, this.since, now)
				: new SessionsDescriptor(agent, this.since.toString(), 0, Map.of("5m", 0L, "1h", 0L, "24h", 0L), 0,
						Map.of(), null, MAX_SESSIONS);
	}

	private static final class Activity {

		private final Map<String, Seen> sessions = new LinkedHashMap<>(16, 0.75f, true) {

			@Override
			protected boolean removeEldestEntry(Map.Entry<String, Seen> eldest) {
				return size() > MAX_SESSIONS;
			}

		};

		private final Map<TurnSummary.Outcome, Long> turns = new EnumMap<>(TurnSummary.Outcome.class);

		synchronized void record(String sessionId, TurnSummary.Outcome outcome, Instant at) {
			this.sessions.put(sessionId, new Seen(at, outcome));
			this.turns.merge(outcome, 1L, Long::sum);
		}

		synchronized SessionsDescriptor describe(String agent, Instant since, Instant now) {
			long[] active = new long[3];
			Duration[] windows = { Duration.ofMinutes(5), Duration.ofHours(1), Duration.ofDays(1) };
			int paused = 0;
			Instant last = null;
			for (Seen seen : this.sessions.values()) {
				for (int i = 0; i < windows.length; i++) {
					if (!seen.at().isBefore(now.minus(windows[i]))) {
						active[i]++;
					}
				}
				if (seen.outcome() == TurnSummary.Outcome.INTERRUPTED) {
					paused++;
				}
				if (last == null || seen.at().isAfter(last)) {
					last = seen.at();
				}
			}
			Map<String, Long> activeSessions = new LinkedHashMap<>();
			activeSessions.put("5m", active[0]);
			activeSessions.put("1h", active[1]);
			activeSessions.put("24h", active[2]);
			Map<String, Long> turns = new LinkedHashMap<>();
			this.turns.forEach((outcome, count) -> turns.put(outcome.value(), count));
			return new SessionsDescriptor(agent, since.toString(), this.sessions.size(), activeSessions, paused, turns,
					(last != null) ? last.toString() : null, MAX_SESSIONS);
		}

	}

	private record Seen(Instant at, TurnSummary.Outcome outcome) {
	}

	/**
	 * What an instance saw of an agent's sessions since it started.
	 *
	 * @param agent the agent's name
	 * @param since when this instance started counting, ISO-8601
	 * @param sessions the sessions seen (at most {@code maxTracked})
	 * @param activeSessions sessions with a turn in the last 5 minutes, hour and day
	 * @param pausedSessions sessions whose last turn waits for a human decision
	 * @param turns finished turns by outcome ({@code completed}, {@code failed}, …)
	 * @param lastActivity when the last turn ended, ISO-8601; null when none did
	 * @param maxTracked the most sessions kept per agent
	 */
	public record SessionsDescriptor(String agent, String since, int sessions, Map<String, Long> activeSessions,
			int pausedSessions, Map<String, Long> turns, @Nullable String lastActivity, int maxTracked) {
	}

}
