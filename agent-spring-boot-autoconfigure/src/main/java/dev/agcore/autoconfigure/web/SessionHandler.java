package dev.agcore.autoconfigure.web;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.agcore.memory.AgentSessions;
import dev.agcore.memory.SessionDirectory;
import dev.agcore.runtime.AgentRequest;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * Handles the session routes: list a user's sessions, delete a session. The user is the
 * authenticated principal's name when there is one, whatever {@code userId} the caller
 * passes; else the {@code userId} query parameter: without security anyone can name any
 * user; with Spring Security an anonymous caller names no one (its {@code userId} is
 * ignored, logged once at WARN), so it can neither list nor delete a user's sessions. A
 * principal deletes only its own sessions (404 for any other, as for an unknown one).
 */
final class SessionHandler {

	static final int DEFAULT_LIMIT = 20;

	private static final Log logger = LogFactory.getLog(SessionHandler.class);

	private static final AtomicBoolean warnedAnonymousUserId = new AtomicBoolean();

	private final AgentSessions sessions;

	private final RequestAccess access;

	SessionHandler(AgentSessions sessions, RequestAccess access) {
		this.sessions = sessions;
		this.access = access;
	}

	Mono<ServerResponse> list(ServerRequest request) {
		return Mono.defer(() -> {
			int offset = intParam(request, "offset", 0);
			int limit = intParam(request, "limit", DEFAULT_LIMIT);
			if (offset < 0) {
				throw AgentHandler.badRequest("'offset' must not be negative, was " + offset);
			}
			if (limit < 1 || limit > SessionDirectory.MAX_PAGE_SIZE) {
				throw AgentHandler.badRequest(
						"'limit' must be between 1 and " + SessionDirectory.MAX_PAGE_SIZE + ", was " + limit);
			}
			return this.access.caller(request)
				.flatMap((caller) -> Mono.justOrEmpty(userId(caller, request.queryParam("userId").orElse(null))))
				.switchIfEmpty(Mono.error(() -> AgentHandler.badRequest(this.access.secured()
						? "Authenticate to list your sessions: an anonymous caller cannot list a user's sessions"
						: "'userId' is required: pass it as a query parameter, or authenticate")))
				.flatMap((userId) -> this.sessions.list(userId, offset, limit))
				.flatMap((infos) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(infos));
		});
	}

	/**
	 * Idempotent for an anonymous caller: deleting an unknown session answers 204 too. A
	 * principal's delete of a session that is not its own, unknown or someone else's,
	 * answers 404.
	 */
	Mono<ServerResponse> delete(ServerRequest request) {
		return this.access.caller(request).flatMap((caller) -> {
			String sessionId = AgentHandler.sessionId(request.pathVariable("sessionId"));
			String userId = userId(caller, request.queryParam("userId").orElse(null));
			return this.access.read(sessionId, caller)
				.then(Mono.defer(() -> this.sessions.delete(sessionId, userId)))
				.then(ServerResponse.noContent().build());
		});
	}

	/**
	 * The user of a request: the principal's name, else the one the caller names;
	 * {@code null} if neither.
	 */
	static @Nullable String userId(RequestAccess.Caller caller, @Nullable String claimed) {
		String name = caller.name();
		if (name != null) {
			return name;
		}
		if (claimed != null && caller.secured()) {
			// with authentication, only a principal is a user: an anonymous caller's turn is the session's
			if (warnedAnonymousUserId.compareAndSet(false, true)) {
				logger.warn("An anonymous caller named a userId on an agent route, which is ignored: with Spring "
						+ "Security, only an authenticated principal is a user. This is logged once.");
			}
			return null;
		}
		return checked(claimed);
	}

	private static @Nullable String checked(@Nullable String userId) {
		if (userId == null) {
			return null;
		}
		if (userId.isBlank()) {
			throw AgentHandler.badRequest("'userId' must not be blank");
		}
		if (userId.length() > AgentRequest.MAX_USER_ID_LENGTH) {
			throw AgentHandler.badRequest("'userId' must be at most " + AgentRequest.MAX_USER_ID_LENGTH
					+ " characters, was " + userId.length());
		}
		return userId;
	}

	private static int intParam(ServerRequest request, String name, int defaultValue) {
		Optional<String> value = request.queryParam(name);
		if (value.isEmpty()) {
			return defaultValue;
		}
		try {
			return Integer.parseInt(value.get().strip());
		}
		catch (NumberFormatException ex) {
			throw AgentHandler.badRequest("'" + name + "' must be an integer, was '" + value.get() + "'");
		}
	}

}
