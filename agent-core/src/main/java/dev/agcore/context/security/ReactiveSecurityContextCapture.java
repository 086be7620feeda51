package dev.agcore.context.security;

import dev.agcore.context.ContextCapture;
import dev.agcore.context.PropagatedContext;

import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * Makes the {@link SecurityContext} of a reactive caller (Spring Security's WebFlux
 * filter chain keeps it in the Reactor context, {@link ReactiveSecurityContextHolder})
 * the {@link SecurityContextHolder} context of the turn's tools and hooks, which are
 * plain blocking code that reads the holder. A turn without one is left as it is.
 */
public final class ReactiveSecurityContextCapture implements ContextCapture {

	@Override
	public Mono<PropagatedContext> capture(ContextView view) {
		if (!view.hasKey(SecurityContext.class)) {
			return Mono.just(PropagatedContext.NONE);
		}
		return ReactiveSecurityContextHolder.getContext()
			.contextWrite(view)
			.<PropagatedContext>map(Holder::new)
			.defaultIfEmpty(PropagatedContext.NONE);
	}

	@Override
	public String toString() {
		return "ReactiveSecurityContextCapture";
	}

	/** Sets the caller's context in the holder, and puts back the thread's after. */
	private record Holder(SecurityContext context) implements PropagatedContext {

		@Override
		public Scope open() {
			SecurityContext previous = SecurityContextHolder.getContext();
			SecurityContextHolder.setContext(this.context);
			return () -> {
				if (previous.getAuthentication() == null) {
					SecurityContextHolder.clearContext();
				}
				else {
					SecurityContextHolder.setContext(previous);
				}
			};
		}

	}

}
