package dev.agcore.tool.secret;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
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
	void environmentResolverReadsAllowedSystemPropertiesFirst() {
		System.setProperty("AGCORE_TEST_SECRET", "from-property");
		try {
			SecretResolver resolver = SecretResolver.environment("AGCORE_TEST_*");
			assertThat(resolver.resolve("AGCORE_TEST_SECRET")).isEqualTo("from-property");
			assertThat(resolver.resolve("AGCORE_TEST_SECRET_MISSING")).isNull();
		}
		finally {
			System.clearProperty("AGCORE_TEST_SECRET");
		}
	}

	@Test
	void environmentResolverResolvesOnlyAllowedNames() {
		System.setProperty("AGCORE_TEST_SECRET", "from-property");
		System.setProperty("agcore.test.other", "other");
		try {
			assertThat(SecretResolver.environment().resolve("AGCORE_TEST_SECRET")).isNull();
			assertThat(SecretResolver.environment("AGCORE_TEST_SECRET").resolve("agcore.test.other")).isNull();
			assertThat(SecretResolver.environment("AGCORE_TEST_SECRE?").resolve("AGCORE_TEST_SECRET"))
				.isEqualTo("from-property");
			// PATH is set wherever the tests run; only an allow-list entry can reach it
			assertThat(System.getenv("PATH")).isNotEmpty();
			assertThat(SecretResolver.environment("AGCORE_*").resolve("PATH")).isNull();
			assertThat(SecretResolver.environment("PATH").resolve("PATH")).isEqualTo(System.getenv("PATH"));
		}
		finally {
			System.clearProperty("AGCORE_TEST_SECRET");
			System.clearProperty("agcore.test.other");
		}
	}

	@Test
	void scrubsJsonEscapedFormsOnceOrTwice() {
		SecretReferences.Resolution resolution = resolveOdd("p\"a\\ss/w\u00f6rd\nx");
		String once = AgentJson.mapper().writeValueAsString(Map.of("k", "p\"a\\ss/w\u00f6rd\nx"));
		String twice = AgentJson.mapper().writeValueAsString(Map.of("body", once));
		assertThat(resolution.scrub(once)).isEqualTo("{\"k\":\"<secret_ref:ODD>\"}");
		assertThat(resolution.scrub(twice)).isEqualTo("{\"body\":\"{\\\"k\\\":\\\"<secret_ref:ODD>\\\"}\"}");
		// escaped slashes and escaped non-ASCII, in either case, as other JSON writers do
		assertThat(resolution.scrub("[\"p\\\"a\\\\ss\\/w\\u00F6rd\\nx\", \"p\\\"a\\\\ss/w\\u00f6rd\\nx\"]"))
			.isEqualTo("[\"<secret_ref:ODD>\", \"<secret_ref:ODD>\"]");
	}

	@Test
	void scrubsUrlEncodedForms() {
		String secret = "a b&c=d/\u00e9";
		SecretReferences.Resolution resolution = resolveOdd(secret);
		String form = URLEncoder.encode(secret, StandardCharsets.UTF_8);
		assertThat(form).isEqualTo("a+b%26c%3Dd%2F%C3%A9");
		assertThat(resolution.scrub("https://x.example/?q=" + form + "&r=1"))
			.isEqualTo("https://x.example/?q=<secret_ref:ODD>&r=1");
		assertThat(resolution.scrub("/path/a%20b%26c%3dd%2f%c3%a9")).isEqualTo("/path/<secret_ref:ODD>");
	}

	@Test
	void scrubsBase64FormsAloneAndInsideLongerValues() {
		String secret = "sk-live-7f3a9c2e51";
		SecretReferences.Resolution resolution = resolveOdd(secret);
		Base64.Encoder standard = Base64.getEncoder();
		assertThat(resolution.scrub(standard.encodeToString(secret.getBytes(StandardCharsets.UTF_8))))
			.isEqualTo("<secret_ref:ODD>");
		for (String prefix : List.of("u:", "us:", "use:")) {
			byte[] bytes = (prefix + secret + "!").getBytes(StandardCharsets.UTF_8);
			for (String encoded : List.of(standard.encodeToString(bytes),
					Base64.getUrlEncoder().withoutPadding().encodeToString(bytes))) {
				String scrubbed = resolution.scrub("Basic " + encoded);
				assertThat(scrubbed).startsWith("Basic ").containsOnlyOnce("<secret_ref:ODD>");
				// of the 24 characters encoding the secret, none is left: only those of the
				// neighbouring bytes (at most 6 before, 4 after)
				assertThat(scrubbed.substring(6).replace("<secret_ref:ODD>", "")).hasSizeLessThanOrEqualTo(10);
			}
		}
	}

	@Test
	void scrubsSecretsOfAnyLength() {
		String secret = "-----BEGIN KEY-----\n" + "Zm9vYmFy".repeat(2048) + "\n-----END KEY-----";
		SecretReferences.Resolution resolution = resolveOdd(secret);
		String json = AgentJson.mapper().writeValueAsString(Map.of("key", secret));
		assertThat(resolution.scrub("x".repeat(65536) + json)).isEqualTo("x".repeat(65536) + "{\"key\":\"<secret_ref:ODD>\"}");
	}

	@Test
	void leavesShortBase64PiecesAlone() {
		SecretReferences.Resolution resolution = resolveOdd("ab");
		assertThat(resolution.scrub("YWI=")).isEqualTo("YWI=");
		assertThat(resolution.scrub("ab")).isEqualTo("<secret_ref:ODD>");
	}

	@Test
	void activeSecretsAreScrubbedOnlyWithinTheirScope() {
		SecretReferences.Resolution resolution = resolveOdd("t0k3n-secret");
		assertThat(ActiveSecrets.scrub("t0k3n-secret")).isEqualTo("t0k3n-secret");
		try (ActiveSecrets.Scope scope = ActiveSecrets.open(resolution)) {
			assertThat(ActiveSecrets.isActive()).isTrue();
			assertThat(ActiveSecrets.scrub("key=t0k3n-secret")).isEqualTo("key=<secret_ref:ODD>");
		}
		assertThat(ActiveSecrets.isActive()).isFalse();
		assertThat(ActiveSecrets.scrub("t0k3n-secret")).isEqualTo("t0k3n-secret");
	}

	private SecretReferences.Resolution resolveOdd(String secret) {
		return SecretReferences.resolve("{\"token\":\"<secret_ref:ODD>\"}", Set.of("token"),
				SecretResolver.of(Map.of("ODD", secret)), AgentJson.mapper());
	}

	private SecretReferences.Resolution resolve(String arguments, Set<String> eligible) {
		return SecretReferences.resolve(arguments, eligible, this.secrets, AgentJson.mapper());
	}

}
