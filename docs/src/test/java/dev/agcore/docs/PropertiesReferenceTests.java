package dev.agcore.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.agcore.docs.support.PropertiesReference;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/reference/properties.md is the configuration metadata on this module's classpath
 * (the autoconfigure jar's, with the additional metadata merged in), rendered by
 * {@link PropertiesReference}. Each build renders it into
 * {@code target/generated-docs/properties.md}; the committed page must be the same.
 */
class PropertiesReferenceTests {

	static final String REFRESH = "mvn -B -pl docs -am test -Dtest=PropertiesReferenceTests "
			+ "-Dsurefire.failIfNoSpecifiedTests=false -Ddocs.update=true";

	private final String rendered = PropertiesReference.render(getClass().getClassLoader());

	@Test
	void committedReferenceIsTheRenderedMetadata() throws IOException {
		Path generated = DocsPages.module().resolve("target/generated-docs/properties.md");
		Files.createDirectories(generated.getParent());
		Files.writeString(generated, this.rendered);
		Path committed = DocsPages.module().resolve("reference/properties.md");
		if (Boolean.getBoolean("docs.update")) {
			Files.createDirectories(committed.getParent());
			Files.writeString(committed, this.rendered);
		}
		assertThat(committed).as("docs/reference/properties.md is missing; generate it with:%n  %s", REFRESH).exists();
		assertThat(Files.readString(committed))
			.as("docs/reference/properties.md is stale: the configuration metadata changed. Refresh it with:%n  %s%n"
					+ "(or copy %s)", REFRESH, generated)
			.isEqualTo(this.rendered);
	}

	@Test
	void referenceHasTheMapValuedKeysWithTheirTypesDefaultsAndValues() {
		assertThat(this.rendered).contains("## agent.agents")
			.contains("| `agent.agents.*.model` | `String` |")
			.contains("| `agent.retry.max-attempts` | `Integer` | `3` |")
			.contains("One of: `full`, `messages`, `tokens`.")
			.doesNotContain("java.lang.")
			.doesNotContain("| `spring.");
	}

}
