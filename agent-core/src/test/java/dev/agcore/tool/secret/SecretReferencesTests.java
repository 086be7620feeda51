package dev.agcore.tool.secret;

import java.util.Map;
import java.util.Set;

import dev.agcore.json.AgentJson;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link SecretReferences}.
 */
class SecretReferencesTests {

	private final SecretResolver secrets = SecretResolver.of(Map.of("TOKEN", "t0k3n", "USER", "ada", "EMPTY", ""));

	@Test
	void leavesArgumentsWithoutReferencesUntouched() {
		String arguments = "{ \"url\" : \"https://example.com\" }";
		SecretReferences.Resolution resolution = resolve(arguments, Set.of("token"));
		assertThat(resolution.arguments()).isSameAs(arguments);
		assertThat(resolution.scrub("t0k3n")).isEqualTo("t0k3n");
	}

	@Test
	void resolvesReferencesAnywhereInsideEligibleParameters() {
		SecretReferences.Resolution resolution = resolve("""
				{"url": "https://example.com", "headers": {"Authorization": "Bearer <secret_ref:TOKEN>",
				 "X-User": ["<secret_ref:USER>"]}}""", Set.of("headers"));
		assertThat(resolution.arguments()).isEqualTo("{\"url\":\"https://example.com\",\"headers\":"
				+ "{\"Authorization\":\"Bearer t0k3n\",\"X-User\":[\"ada\"]}}");
	}

	@Test
	void scrubsResolvedValuesBackToTheirPlaceholders() {
		SecretReferences.Resolution resolution = resolve("{\"token\":\"<secret_ref:TOKEN>\"}", Set.of("token"));
		assertThat(resolution.scrub("sent t0k3n, and t0k3n again")).isEqualTo(
				"sent <secret_ref:TOKEN>, and <secret_ref:TOKEN> again");
	}

	@Test
	void refusesReferencesInOtherParameters() {
		assertThatExceptionOfType(SecretReferenceException.class)
			.isThrownBy(() -> resolve("{\"token\":\"<secret_ref:TOKEN>\",\"note\":{\"x\":[\"<secret_ref:TOKEN>\"]}}",
					Set.of("token")))
			.withMessage("parameter 'note' may not carry a secret reference; only [token] may");
		assertThatExceptionOfType(SecretReferenceException.class)
			.isThrownBy(() -> resolve("{\"url\":\"<secret_ref:TOKEN>\"}", Set.of()))
			.withMessage("parameter 'url' may not carry a secret reference; this tool accepts none");
	}

	@Test
	void namesAnUnknownSecretButNotItsValue() {
		assertThatExceptionOfType(SecretReferenceException.class)
			.isThrownBy(() -> resolve("{\"token\":\"<secret_ref:TOKEN> <secret_ref:MISSING>\"}", Set.of("token")))
			.withMessage("unknown secret 'MISSING' in parameter 'token'");
	}

	@Test
	void refusesReferencesOutsideAnObject() {
		assertThatExceptionOfType(SecretReferenceException.class)
			.isThrownBy(() -> resolve("[\"<secret_ref:TOKEN>\"]", Set.of("token")))
			.withMessage("secret references are only allowed in named parameters");
		assertThatExceptionOfType(SecretReferenceException.class)
			.isThrownBy(() -> resolve("{\"token\": \"<secret_ref:TOKEN>\"", Set.of("token")))
			.withMessage("the arguments hold a secret reference but are not valid JSON");
	}

	@Test
	void emptySecretIsResolvedButNeverScrubbed() {
		SecretReferences.Resolution resolution = resolve("{\"token\":\"<secret_ref:EMPTY>\"}", Set.of("token"));
		assertThat(resolution.arguments()).isEqualTo("{\"token\":\"\"}");
		assertThat(resolution.scrub("result")).isEqualTo("result");
	}

	@Test
	void environmentResolverReadsSystemPropertiesFirst() {
		System.setProperty("AGCORE_TEST_SECRET", "from-property");
		try {
			assertThat(SecretResolver.environment().resolve("AGCORE_TEST_SECRET")).isEqualTo("from-property");
			assertThat(SecretResolver.environment().resolve("AGCORE_TEST_SECRET_MISSING")).isNull();
		}
		finally {
			System.clearProperty("AGCORE_TEST_SECRET");
		}
	}

	private SecretReferences.Resolution resolve(String arguments, Set<String> eligible) {
		return SecretReferences.resolve(arguments, eligible, this.secrets, AgentJson.mapper());
	}

}
