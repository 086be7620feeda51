package dev.agcore.autoconfigure.web;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ServletAgentWebAutoConfiguration}: the endpoint switched on in a
 * Spring MVC application says why it is not there.
 */
@ExtendWith(OutputCaptureExtension.class)
class ServletAgentWebAutoConfigurationTests {

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ServletAgentWebAutoConfiguration.class));

	@Test
	void warnsThatTheEndpointNeedsWebFlux(CapturedOutput output) {
		this.contextRunner.withPropertyValues("agent.web.enabled=true").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).contains("WARN").contains("needs a reactive one")
				.contains("spring-boot-starter-webflux");
		});
	}

	@Test
	void staysQuietWhenTheEndpointIsNotWanted(CapturedOutput output) {
		this.contextRunner.run((context) -> assertThat(output).doesNotContain("needs a reactive one"));
	}

}
