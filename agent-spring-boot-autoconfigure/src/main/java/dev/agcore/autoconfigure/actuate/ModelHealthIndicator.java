package dev.agcore.autoconfigure.actuate;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

import dev.agcore.model.ChatModel;
import dev.agcore.model.ModelException;
import reactor.core.publisher.Mono;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;

/**
 * The health of one provider: UP when {@link ChatModel#checkHealth()} completes in time,
 * DOWN with the error type and message when it fails or times out, UNKNOWN when the
 * model has no health check. Details never hold the API key or the provider's URL.
 */
final class ModelHealthIndicator implements ReactiveHealthIndicator {

	private final String provider;

	private final ChatModel model;

	private final Duration timeout;

	ModelHealthIndicator(String provider, ChatModel model, Duration timeout) {
		this.provider = provider;
		this.model = model;
		this.timeout = timeout;
	}

	@Override
	public Mono<Health> health() {
		return Mono.defer(this.model::checkHealth)
			.timeout(this.timeout)
			.then(Mono.fromSupplier(() -> details(Health.up()).build()))
			.onErrorResume(this::failed);
	}

	private Mono<Health> failed(Throwable ex) {
		if (ex instanceof UnsupportedOperationException) {
			return Mono.just(details(Health.unknown()).withDetail("reason", "no health check").build());
		}
		if (ex instanceof TimeoutException) {
			return Mono.just(details(Health.down())
				.withDetail("error", "timeout")
				.withDetail("message", "no answer within " + this.timeout)
				.build());
		}
		// the model's own message: status and error type, never the request's headers
		String message = (ex instanceof ModelException) ? ex.getMessage() : ex.getClass().getSimpleName();
		return Mono.just(details(Health.down())
			.withDetail("error", ex.getClass().getSimpleName())
			.withDetail("message", (message != null) ? message : "")
			.build());
	}

	private Health.Builder details(Health.Builder builder) {
		return builder.withDetail("provider", this.provider).withDetail("model", this.model.modelName());
	}

}
