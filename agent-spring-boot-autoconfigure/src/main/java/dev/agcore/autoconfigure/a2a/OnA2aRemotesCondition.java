package dev.agcore.autoconfigure.a2a;

import java.util.Map;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when {@code agent.a2a.remotes} has at least one entry.
 */
final class OnA2aRemotesCondition extends SpringBootCondition {

	static final String PREFIX = "agent.a2a.remotes";

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		Map<String, A2aClientProperties.Remote> remotes = Binder.get(context.getEnvironment())
			.bind(PREFIX, Bindable.mapOf(String.class, A2aClientProperties.Remote.class))
			.orElse(Map.of());
		return remotes.isEmpty() ? ConditionOutcome.noMatch("no " + PREFIX + " entries")
				: ConditionOutcome.match(remotes.size() + " " + PREFIX + " entries");
	}

}
