package dev.agcore.runtime;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

import dev.agcore.message.Message;
import dev.agcore.model.Usage;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One session of an application's agents, as an object: each turn goes to the agent
 * named for it (switching agents as it goes, see
 * {@link dev.agcore.memory.SessionMode}), and the session counts the turns made through
 * it and adds up their usage and cost. Obtained from {@link AgentRegistry#session(String)}.
 * <p>
 * The counts are of this object's turns only: a turn made through an agent directly, or
 * through another {@code AgentSession} of the same id, is not in them, nor is a turn that
 * failed (it reports no result); a turn paused for approval counts with what it used
 * before the pause. The conversation itself lives in the agents' stores, which decide
 * how long a session is kept ({@code agent.memory.session-ttl}). Thread-safe.
 *
 * @since 0.1.0
 */
public final class AgentSession {

	private final AgentRegistry agents;

	private final String sessionId;

	private final AtomicReference<Totals> totals = new AtomicReference<>(Totals.NONE);

	AgentSession(AgentRegistry agents, String sessionId) {
		this.agents = Objects.requireNonNull(agents, "'agents' must not be null");
		// the request's rules, checked now rather than at the first turn
		this.sessionId = AgentRequest.of(sessionId, "").sessionId();
	}

	public String sessionId() {
		return this.sessionId;
	}

	/**
	 * Return how many turns were made through this session: the index the next one gets,
	 * counting from 0.
	 * @return the number of turns with a result
	 */
	public int turns() {
		return this.totals.get().turns();
	}

	/**
	 * Return the tokens of the turns made through this session, their sub-agents' included.
	 * @return the usage, {@link Usage#EMPTY} before the first turn
	 */
	public Usage usage() {
		return this.totals.get().usage();
	}

	/**
	 * Return the cost of the turns made through this session, of the model calls that have
	 * a price.
	 * @return the cost, or {@code null} when no turn had a priced call
	 */
	public @Nullable BigDecimal cost() {
		return this.totals.get().cost();
	}

	/**
	 * Return the agent of the last turn made through this session.
	 * @return the agent's name, null before the first turn
	 */
	public @Nullable String lastAgent() {
		return this.totals.get().lastAgent();
	}

	/**
	 * Return a request of this session.
	 * @param message the user's message
	 * @return the request, to add a user id, options or media to
	 */
	public AgentRequest request(String message) {
		return AgentRequest.of(this.sessionId, message);
	}

	/**
	 * Run a turn with an agent.
	 * @param agent the agent's name
	 * @param message the user's message
	 * @return the result
	 * @throws IllegalArgumentException naming the known agents if there is none by that
	 * name
	 */
	public Mono<AgentResult> invoke(String agent, String message) {
		return invoke(agent, request(message));
	}

	/**
	 * Run a turn with an agent.
	 * @param agent the agent's name
	 * @param request the request, of this session
	 * @return the result
	 * @throws IllegalArgumentException if there is no agent by that name, or the request
	 * is of another session
	 */
	public Mono<AgentResult> invoke(String agent, AgentRequest request) {
		Agent chosen = agent(agent, request);
		return chosen.invoke(request).doOnNext((result) -> count(chosen.name(), result));
	}

	/**
	 * Run a turn with an agent, streaming its events.
	 * @param agent the agent's name
	 * @param message the user's message
	 * @return the events
	 */
	public Flux<AgentEvent> stream(String agent, String message) {
		return stream(agent, request(message));
	}

	/**
	 * Run a turn with an agent, streaming its events.
	 * @param agent the agent's name
	 * @param request the request, of this session
	 * @return the events
	 * @throws IllegalArgumentException if there is no agent by that name, or the request
	 * is of another session
	 */
	public Flux<AgentEvent> stream(String agent, AgentRequest request) {
		Agent chosen = agent(agent, request);
		return chosen.stream(request).doOnNext((event) -> {
			if (event instanceof AgentEvent.Completed completed) {
				count(chosen.name(), completed.result());
			}
		});
	}

	/**
	 * Run a turn with an agent and wait for it.
	 * @param agent the agent's name
	 * @param message the user's message
	 * @return the result
	 */
	public AgentResult call(String agent, String message) {
		AgentResult result = invoke(agent, message).block();
		if (result == null) {
			throw new IllegalStateException("Agent '" + agent + "' completed without a result");
		}
		return result;
	}

	/**
	 * Return the conversation of this session as an agent sees it: the session's, or the
	 * agent's own when it is isolated.
	 * @param agent the agent's name
	 * @return the messages, oldest first
	 */
	public Mono<List<Message>> history(String agent) {
		return this.agents.get(agent).history(this.sessionId);
	}

	private Agent agent(String name, AgentRequest request) {
		if (!request.sessionId().equals(this.sessionId)) {
			throw new IllegalArgumentException("The request is of session '" + request.sessionId()
					+ "', not of this session '" + this.sessionId + "'");
		}
		return this.agents.get(name);
	}

	private void count(String agent, AgentResult result) {
		this.totals.updateAndGet((totals) -> totals.plus(agent, result));
	}

	@Override
	public String toString() {
		Totals totals = this.totals.get();
		return "AgentSession '" + this.sessionId + "' (" + totals.turns() + " turns, " + totals.usage().totalTokens()
				+ " tokens)";
	}

	/** What the turns so far add up to; replaced as a whole, so readers see one turn's totals at once. */
	private record Totals(int turns, Usage usage, @Nullable BigDecimal cost, @Nullable String lastAgent) {

		static final Totals NONE = new Totals(0, Usage.EMPTY, null, null);

		Totals plus(String agent, AgentResult result) {
			BigDecimal sum = (result.cost() == null) ? this.cost
					: (this.cost == null) ? result.cost() : this.cost.add(result.cost());
			return new Totals(this.turns + 1, this.usage.plus(result.usage()), sum, agent);
		}

	}

}
