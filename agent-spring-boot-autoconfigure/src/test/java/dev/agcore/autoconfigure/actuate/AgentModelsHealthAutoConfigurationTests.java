package dev.agcore.autoconfigure.actuate;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatModelRegistry;
import dev.agcore.model.ModelAuthenticationException;
import dev.agcore.model.ModelDescriptor;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeReactiveHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AgentModelsHealthAutoConfiguration}.
 */
class AgentModelsHealthAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentModelsHealthAutoConfiguration.class));

	@Test
	void offByDefault() {
		this.contextRunner.withBean(ChatModelRegistry.class, () -> registry(Map.of("openai", healthy())))
			.run((context) -> assertThat(context).doesNotHaveBean(AgentHealthContribution.class));
	}

	@Test
	void enabledProvidersAreCheckedByName() {
		this.contextRunner
			.withBean(ChatModelRegistry.class,
					() -> registry(Map.of("up", healthy(), "down", failing(), "unknown", ScriptedChatModel.replaying())))
			.withPropertyValues("agent.providers.up.health.enabled=true", "agent.providers.down.health.enabled=true",
					"agent.providers.unknown.health.enabled=true")
			.run((context) -> {
				CompositeReactiveHealthContributor composite = models(context);
				Health up = health(composite, "up");
				assertThat(up.getStatus()).isEqualTo(Status.UP);
				assertThat(up.getDetails()).containsEntry("provider", "up");
				Health down = health(composite, "down");
				assertThat(down.getStatus()).isEqualTo(Status.DOWN);
				assertThat(down.getDetails()).containsEntry("error", "ModelAuthenticationException");
				assertThat(down.getDetails().get("message").toString()).contains("invalid x-api-key")
					.doesNotContain("sk-secret");
				assertThat(health(composite, "unknown").getStatus()).isEqualTo(Status.UNKNOWN);
			});
	}

	@Test
	void onlyEnabledProvidersAreChecked() {
		this.contextRunner
			.withBean(ChatModelRegistry.class, () -> registry(Map.of("on", healthy(), "off", healthy())))
			.withPropertyValues("agent.providers.on.health.enabled=true", "agent.providers.off.model=m")
			.run((context) -> {
				CompositeReactiveHealthContributor composite = models(context);
				assertThat(composite.getContributor("on")).isNotNull();
				assertThat(composite.getContributor("off")).isNull();
			});
	}

	@Test
	void providerWithoutModelOfItsOwnIsCheckedThroughItsNamedModel() {
		ChatModelRegistry registry = new ChatModelRegistry(Map.of("sonnet", failing()), Map.of(), Map.of(),
				Map.of("sonnet", new ModelDescriptor("sonnet", ModelDescriptor.KIND_MODEL, "claude", "anthropic",
						"claude-sonnet-4-5", null, null, Set.of())));
		this.contextRunner.withBean(ChatModelRegistry.class, () -> registry)
			.withPropertyValues("agent.providers.claude.health.enabled=true")
			.run((context) -> {
				CompositeReactiveHealthContributor composite = models(context);
				Health claude = health(composite, "claude");
				assertThat(claude.getStatus()).isEqualTo(Status.DOWN);
				assertThat(claude.getDetails()).containsEntry("provider", "claude")
					.containsEntry("error", "ModelAuthenticationException");
				assertThat(composite.getContributor("sonnet")).isNull();
			});
	}

	@Test
	void checkThatDoesNotAnswerInTimeIsDown() {
		ModelHealthIndicator indicator = new ModelHealthIndicator("slow", new Checked(Mono.never()),
				Duration.ofMillis(50));

		Health health = indicator.health().block(Duration.ofSeconds(5));

		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("error", "timeout");
	}

	/** The providers' part of the agents health contributor, named models. */
	private static CompositeReactiveHealthContributor models(ApplicationContext context) {
		AgentHealthContribution part = context.getBean("modelsHealthContribution", AgentHealthContribution.class);
		assertThat(part.name()).isEqualTo("models");
		return (CompositeReactiveHealthContributor) part.contributor();
	}

	private static Health health(CompositeReactiveHealthContributor composite, String name) {
		return ((ReactiveHealthIndicator) composite.getContributor(name)).health().block(Duration.ofSeconds(5));
	}

	private static ChatModelRegistry registry(Map<String, ChatModel> providers) {
		return new ChatModelRegistry(providers, Map.of());
	}

	private static ChatModel healthy() {
		return new Checked(Mono.empty());
	}

	private static ChatModel failing() {
		return new Checked(Mono.error(new ModelAuthenticationException("anthropic", 401,
				"authentication_error: invalid x-api-key")));
	}

	/** A model whose health check gives the given result. */
	private static final class Checked implements ChatModel {

		private final Mono<Void> health;

		Checked(Mono<Void> health) {
			this.health = health;
		}

		@Override
		public Mono<dev.agcore.model.ChatResponse> call(dev.agcore.model.ChatRequest request) {
			return Mono.error(new UnsupportedOperationException());
		}

		@Override
		public reactor.core.publisher.Flux<dev.agcore.model.ChatChunk> stream(dev.agcore.model.ChatRequest request) {
			return reactor.core.publisher.Flux.error(new UnsupportedOperationException());
		}

		@Override
		public Mono<Void> checkHealth() {
			return this.health;
		}

	}

}
