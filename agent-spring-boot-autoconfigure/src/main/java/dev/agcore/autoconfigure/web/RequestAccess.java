package dev.agcore.autoconfigure.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

import dev.agcore.AgentPrincipal;
import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.Auditor;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.memory.SessionOwners;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.AgentAccessDeniedException;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.CallerResolver;
import dev.agcore.runtime.SessionAccess;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * Who may do what on the agent routes: the caller ({@link PrincipalResolver}), the roles
 * an agent needs ({@code agent.agents.<name>.roles}) and the owner of each session
 * ({@link SessionOwners}).
 * <p>
 * A session belongs to the principal whose request created it. A principal reaches only
 * its own sessions; an anonymous caller only sessions nobody owns. Every other session,
 * and an agent whose roles the caller lacks, is answered 404 exactly as an unknown one
 * is, so a caller cannot tell whether someone else's exists.
 * <p>
 * Public for the protocol adapters (such as the OpenAI-compatible routes), which apply
 * the same rules as the agent endpoint.
 *
 * @since 0.1.0
 */
public final class RequestAccess {

	/** The agent named by the audit events of refusals on the routes. */
	public static final String AUDIT_AGENT = "web";

	private static final String CALLER_ATTRIBUTE = RequestAccess.class.getName() + ".caller";

	private final AgentRegistry agents;

	private final PrincipalResolver principals;

	private final SessionAccess owners;

	private final boolean secured;

	private final Map<String, List<String>> roles;

	private final Auditor auditor;

	/**
	 * Create the access rules.
	 * @param agents the agents
	 * @param principals who the caller is
	 * @param owners the sessions' owners
	 * @param roles the roles each agent needs, by agent name; an agent not named is open
	 * @param secured whether the application authenticates its callers
	 */
	RequestAccess(AgentRegistry agents, PrincipalResolver principals, SessionOwners owners,
			Map<String, List<String>> roles, boolean secured) {
		this(agents, principals, SessionAccess.of(owners), roles, secured, Auditor.NONE);
	}

	private RequestAccess(AgentRegistry agents, PrincipalResolver principals, SessionAccess owners,
			Map<String, List<String>> roles, boolean secured, Auditor auditor) {
		this.agents = agents;
		this.principals = principals;
		this.owners = owners;
		this.roles = Map.copyOf(roles);
		this.secured = secured;
		this.auditor = auditor;
	}

	/**
	 * Return these rules with refusals audited: a session refused on a route before any
	 * agent is asked is an {@link AuditEvent.Kind#ACCESS_DENIED} event of agent
	 * {@value #AUDIT_AGENT}, as a refusal by the agent itself is one of that agent.
	 * @param auditor the auditor
	 * @return the rules
	 */
	public RequestAccess audited(Auditor auditor) {
		return new RequestAccess(this.agents, this.principals, this.owners, this.roles, this.secured, auditor);
	}

	/**
	 * Create the access rules of {@code agent.agents.<name>.roles}.
	 * @param agents the agents
	 * @param properties the agent properties, for the roles
	 * @param principals who the caller is; {@code null} for the exchange's principal
	 * @param owners the sessions' owners: always kept, so that ownership never switches
	 * off silently
	 * @param secured whether the application authenticates its callers
	 * ({@link CallerResolver#secured()}): then an anonymous caller cannot name a user
	 * @return the access rules
	 */
	public static RequestAccess create(AgentRegistry agents, AgentProperties properties,
			@Nullable PrincipalResolver principals, SessionOwners owners, boolean secured) {
		return new RequestAccess(agents, (principals != null) ? principals : new ExchangePrincipalResolver(),
				Objects.requireNonNull(owners, "'owners' must not be null"), roles(properties), secured);
	}

	/**
	 * Whether the application authenticates its callers: then a {@code userId} an
	 * anonymous caller names in a body or a query is ignored.
	 * @return whether it does
	 */
	public boolean secured() {
		return this.secured;
	}

	private static Map<String, List<String>> roles(AgentProperties properties) {
		Map<String, List<String>> roles = new LinkedHashMap<>();
		properties.getAgents().forEach((name, spec) -> {
			List<String> required = spec.getRoles();
			if (required.stream().anyMatch((role) -> role == null || role.isBlank())) {
				throw new AgentConfigurationException("agent.agents." + name + ".roles must not hold a blank role",
						"List role names such as ADMIN, or remove agent.agents." + name + ".roles.");
			}
			if (!required.isEmpty()) {
				roles.put(name, List.copyOf(required));
			}
		});
		return roles;
	}

	/**
	 * The caller of a request, resolved once per exchange.
	 * @param request the request
	 * @return the caller, {@link Caller#ANONYMOUS} when no principal
	 */
	public Mono<Caller> caller(ServerRequest request) {
		Object known = request.exchange().getAttribute(CALLER_ATTRIBUTE);
		if (known instanceof Caller caller) {
			return Mono.just(caller);
		}
		return Mono.defer(() -> this.principals.resolve(request.exchange()))
			.map((principal) -> {
				if (principal.name().length() > AgentRequest.MAX_USER_ID_LENGTH) {
					throw AgentHandler.badRequest("The principal's name is longer than "
							+ AgentRequest.MAX_USER_ID_LENGTH + " characters");
				}
				return new Caller(principal);
			})
			.defaultIfEmpty(this.secured ? Caller.UNAUTHENTICATED : Caller.ANONYMOUS)
			.doOnNext((caller) -> request.exchange().getAttributes().put(CALLER_ATTRIBUTE, caller));
	}

	/**
	 * Whether the caller may use an agent: it has one of the agent's roles, if any.
	 * @param caller the caller
	 * @param agentName the agent's name
	 * @return whether it may
	 */
	public boolean mayUse(Caller caller, String agentName) {
		List<String> required = this.roles.get(agentName);
		if (required == null || required.isEmpty()) {
			return true;
		}
		return caller.principal() != null && caller.principal().hasAnyRole(required);
	}

	/**
	 * The agent the path names, if the caller may use it.
	 * @param name the agent's name
	 * @param caller the caller
	 * @return the agent
	 * @throws RuntimeException 404 ({@link HttpFailure#of}) for an unknown agent or one
	 * the caller may not use, naming only the agents the caller may use
	 */
	public Agent agent(String name, Caller caller) {
		return this.agents.find(name)
			.filter((agent) -> mayUse(caller, agent.name()))
			.orElseThrow(() -> AgentHandler.notFound("No agent named '" + name + "'; known agents: "
					+ this.agents.all().stream().map(Agent::name).filter((known) -> mayUse(caller, known)).toList()));
	}

	/**
	 * Let the caller start or continue a session: a principal claims a session nobody owns
	 * (the first claim wins); an anonymous caller may use only a session nobody owns.
	 * @param sessionId the session
	 * @param caller the caller
	 * @return completes if the caller may, else fails with the 404 of an unknown session
	 */
	public Mono<Void> claim(String sessionId, Caller caller) {
		return this.owners.claim(sessionId, caller.principal())
			.onErrorMap(AgentAccessDeniedException.class, (ex) -> refused(sessionId, caller, "turn"));
	}

	/**
	 * Let the caller read, resume or delete a session: a principal only its own, an
	 * anonymous caller only one nobody owns ({@link SessionAccess}, as the agent decides).
	 * @return completes if the caller may, else fails with the 404 of an unknown session
	 */
	Mono<Void> read(String sessionId, Caller caller) {
		return this.owners.read(sessionId, caller.principal())
			.onErrorMap(AgentAccessDeniedException.class, (ex) -> refused(sessionId, caller, "read"));
	}

	private RuntimeException refused(String sessionId, Caller caller, String operation) {
		this.auditor.publish(AuditEvent.Kind.ACCESS_DENIED, AUDIT_AGENT, sessionId, caller.name(), null, null, "",
				UnaryOperator.identity(), "denied", operation);
		return notFound(sessionId);
	}

	/** The same answer for a session that does not exist and for someone else's. */
	static RuntimeException notFound(String sessionId) {
		return AgentHandler.notFound("No session '" + sessionId + "'");
	}

	/**
	 * The caller of a request.
	 *
	 * @param principal the authenticated principal, or {@code null} for an anonymous caller
	 * @param secured whether the application authenticates its callers: an anonymous
	 * caller then speaks for no user, whatever {@code userId} it names
	 */
	public record Caller(@Nullable AgentPrincipal principal, boolean secured) {

		/** A caller without a principal, in an application that authenticates nobody. */
		public static final Caller ANONYMOUS = new Caller(null, false);

		/**
		 * A caller without a principal, in an application that authenticates its callers:
		 * it cannot name a user.
		 */
		public static final Caller UNAUTHENTICATED = new Caller(null, true);

		/**
		 * A caller.
		 * @param principal the authenticated principal, or {@code null} for an anonymous
		 * caller
		 */
		public Caller(@Nullable AgentPrincipal principal) {
			this(principal, principal != null);
		}

		/**
		 * The principal's name: the user id of the request, whatever the body claims.
		 * @return the name, {@code null} for an anonymous caller
		 */
		public @Nullable String name() {
			return (this.principal != null) ? this.principal.name() : null;
		}

		/**
		 * The Reactor context a turn of this caller runs with: its principal, for tools.
		 * @return the context
		 */
		public Context context() {
			// decided here: the agent does not ask its own resolver again
			return (this.principal != null) ? AgentPrincipal.context(this.principal) : CallerResolver.anonymous();
		}

	}

}
