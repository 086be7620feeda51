package dev.agcore.autoconfigure.web;

import java.security.Principal;
import java.util.Optional;

import dev.agcore.memory.AgentSessions;
import dev.agcore.memory.SessionDirectory;
import dev.agcore.runtime.AgentRequest;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * Handles the session routes: list a user's sessions, delete a session. The user is the
 * authenticated principal's name when there is one, else the {@code userId} query
 * parameter: without Spring Security anyone can name any user.
 */
final class SessionHandler {

	static final int DEFAULT_LIMIT = 20;

	private final AgentSessions sessions;

	SessionHandler(AgentSessions sessions) {
		this.sessions = sessions;
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
			return userId(request, request.queryParam("userId").orElse(null))
				.switchIfEmpty(Mono.error(() -> AgentHandler
					.badRequest("'userId' is required: pass it as a query parameter, or authenticate")))
				.flatMap((userId) -> this.sessions.list(userId, offset, limit))
				.flatMap((infos) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(infos));
		});
	}

	/** Idempotent: deleting an unknown session answers 204 too. */
	Mono<ServerResponse> delete(ServerRequest request) {
		return Mono.defer(() -> {
			String sessionId = AgentHandler.sessionId(request.pathVariable("sessionId"));
			return userId(request, request.queryParam("userId").orElse(null)).map(Optional::of)
				.defaultIfEmpty(Optional.empty())
				.flatMap((userId) -> this.sessions.delete(sessionId, userId.orElse(null)))
				.then(ServerResponse.noContent().build());
		});
	}

	/**
	 * The user of a request: the principal's name, else the one the caller names; empty
	 * if neither.
	 */
	static Mono<String> userId(ServerRequest request, @Nullable String claimed) {
		Mono<String> named = Mono.fromCallable(() -> checked(claimed));
		return request.principal()
			.map(Principal::getName)
			.filter((name) -> !name.isBlank())
			.map(SessionHandler::checked)
			.switchIfEmpty(named);
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
