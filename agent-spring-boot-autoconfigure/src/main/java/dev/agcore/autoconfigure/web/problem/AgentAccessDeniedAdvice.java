package dev.agcore.autoconfigure.web.problem;

import java.net.URI;

import dev.agcore.runtime.AgentAccessDeniedException;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The answer to an {@link AgentAccessDeniedException} that leaves an application's own
 * controller: {@code 404 Not Found}, worded as for a session that does not exist, so the
 * caller learns neither that someone else's session exists nor anything of it. An
 * {@code @ExceptionHandler} of the controller itself, or an advice of the application
 * ordered before this one, still wins.
 *
 * @since 0.1.0
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
public class AgentAccessDeniedAdvice {

	/** The problem type of a session the caller may not see. */
	public static final URI TYPE = URI.create("urn:agcore:problem:not-found");

	@ExceptionHandler(AgentAccessDeniedException.class)
	ResponseEntity<ProblemDetail> accessDenied(AgentAccessDeniedException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, ex.getMessage());
		problem.setType(TYPE);
		problem.setProperty("error", ex.errorCode());
		return ResponseEntity.status(HttpStatus.NOT_FOUND).body(problem);
	}

}
