package dev.agcore.autoconfigure.prompt;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import com.github.jknack.handlebars.Handlebars;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.prompt.PromptTemplates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PromptTemplatesAutoConfiguration}.
 */
class PromptTemplatesAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(PromptTemplatesAutoConfiguration.class));

	@TempDir
	Path folder;

	@Test
	void loadsTheTemplatesOfTheClasspathFolderNamedByTheirPath() {
		this.contextRunner.run((context) -> {
			PromptTemplates templates = context.getBean(PromptTemplates.class);
			assertThat(templates.names()).containsExactly("agents/support", "shared/tone", "support/system");
			assertThat(templates.render("support/system", Map.of("customer", "Ada", "shop", "Tea & Co", "tone", "calm")))
				.isEqualTo("You help Ada of Tea & Co. Answer in a calm way.\n");
		});
	}

	@Test
	void loadsAFileSystemFolderWithAnotherExtension() throws IOException {
		Files.createDirectories(this.folder.resolve("a/b"));
		Files.writeString(this.folder.resolve("a/b/deep.txt"), "深 {{x}}");
		Files.writeString(this.folder.resolve("ignored.hbs"), "{{#if}}");

		this.contextRunner
			.withPropertyValues("agent.prompts.location=file:" + this.folder, "agent.prompts.file-extension=.txt")
			.run((context) -> {
				PromptTemplates templates = context.getBean(PromptTemplates.class);
				assertThat(templates.names()).containsExactly("a/b/deep");
				assertThat(templates.render("a/b/deep", Map.of("x", "水"))).isEqualTo("深 水");
			});
	}

	@Test
	void aFolderThatDoesNotExistGivesAnEmptyRegistry() {
		this.contextRunner.withPropertyValues("agent.prompts.location=file:" + this.folder.resolve("none"))
			.run((context) -> assertThat(context.getBean(PromptTemplates.class).names()).isEmpty());
	}

	@Test
	void aTemplateThatDoesNotParseFailsStartupNamingItsFile() throws IOException {
		Files.writeString(this.folder.resolve("broken.hbs"), "Hello\n{{#if vip}}VIP");

		this.contextRunner.withPropertyValues("agent.prompts.location=file:" + this.folder).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessageContaining("Prompt template file:" + this.folder.toUri().getPath())
				.hasMessageContaining("broken.hbs does not parse: Template 'broken': the {{#if}} block is not closed");
		});
	}

	@Test
	void aMissingPartialFailsStartupNamingTheTemplate() throws IOException {
		Files.writeString(this.folder.resolve("system.hbs"), "Hi {{> footer}}");

		this.contextRunner.withPropertyValues("agent.prompts.location=file:" + this.folder).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessageStartingWith("Prompt template 'system' (file:")
				.hasMessageEndingWith("cannot be used: Template 'system' includes the partial 'footer', "
						+ "which is not a registered template");
		});
	}

	// the failure analyzer reports the configuration exception, whatever wraps it
	private static AgentConfigurationException configurationFailure(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof AgentConfigurationException configuration) {
				return configuration;
			}
		}
		throw new AssertionError("No AgentConfigurationException in " + failure);
	}

	@Test
	void aMisspelledPropertyFailsStartup() {
		this.contextRunner.withPropertyValues("agent.prompts.locaton=classpath:other/").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasRootCauseInstanceOf(
					org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException.class);
		});
	}

	@Test
	void theApplicationsRegistryWins() {
		PromptTemplates own = new PromptTemplates();
		this.contextRunner.withBean(PromptTemplates.class, () -> own)
			.run((context) -> assertThat(context.getBean(PromptTemplates.class)).isSameAs(own));
	}

	@Test
	void withoutHandlebarsThereIsNoRegistry() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(Handlebars.class))
			.run((context) -> assertThat(context).doesNotHaveBean(PromptTemplates.class));
	}

}
