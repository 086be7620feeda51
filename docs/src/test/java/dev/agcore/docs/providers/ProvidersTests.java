package dev.agcore.docs.providers;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import dev.agcore.docs.support.SnippetContexts;
import dev.agcore.message.Media;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatModelRegistry;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatRequest;
import dev.agcore.provider.anthropic.AnthropicChatModel;
import dev.agcore.provider.anthropic.AnthropicSettings;
import dev.agcore.provider.gemini.GeminiChatModel;
import dev.agcore.provider.gemini.GeminiSettings;
import dev.agcore.provider.ollama.OllamaChatModel;
import dev.agcore.provider.ollama.OllamaChatSettings;
import dev.agcore.provider.openai.OpenAiChatModel;
import dev.agcore.provider.openai.OpenAiSettings;
import dev.agcore.provider.support.RateLimitListener;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The snippets of docs/providers.md: the named models yml with its ChatModel bean, the
 * per-request options and media, and the providers built by hand (not called: they
 * would need a server).
 */
class ProvidersTests {

	private final ScriptedChatModel scripted = ScriptedChatModel.answering((request) -> ScriptedChatModel.text("ok"));

	private final String apiKey = "sk-docs";

	private final WebClient.Builder webClientBuilder = WebClient.builder();

	private final RateLimitListener listener = RateLimitListener.NONE;

	@Test
	void namedModelsStartWithTheChatModelBeanTheyName() {
		SnippetContexts.yaml("providers/named-models.yml", this.scripted)
			.withBean("localModel", ChatModel.class, () -> ScriptedChatModel.answering(
					(request) -> ScriptedChatModel.text("local")))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ChatModelRegistry.class).names()).contains("router", "strong", "private",
						"openai", "localModel");
				Agent agent = context.getBean("assistant", Agent.class);
				assertThat(optionsAndMedia(agent).output()).isEqualTo("ok");
				ChatRequest sent = this.scripted.requests().get(0);
				assertThat(sent.options().temperature()).isEqualTo(0.2);
				assertThat(sent.options().maxTokens()).isEqualTo(300);
				assertThat(this.scripted.requests().get(1).messages().toString()).contains("cat.png");
			});
	}

	private static AgentResult optionsAndMedia(Agent agent) {
		// tag::options[]
		AgentResult result = agent.call(AgentRequest.of("s1", "Summarise this")
			.withOptions(ChatOptions.builder().temperature(0.2).maxTokens(300).build()));
		// end::options[]
		// tag::media[]
		agent.call(AgentRequest.of("s1", "What is in this picture?")
			.withMedia(List.of(Media.url(URI.create("https://example.com/cat.png"), "image/png"))));
		// end::media[]
		return result;
	}

	@Test
	void providersBuiltByHandReportTheirModels() {
		List<ChatModel> models = List.of(openAi(), anthropic(), gemini(), ollama());
		assertThat(models).extracting(ChatModel::modelName)
			.containsExactly("gpt-4o-mini", "claude-sonnet-4-5", "gemini-2.5-flash", "qwen3:8b");
	}

	@Test
	void modelAdapterAppliesToTheModelsItSupports() {
		NoThinkingAdapter adapter = new NoThinkingAdapter();
		assertThat(adapter.supports("ollama", "qwen3:8b")).isTrue();
		assertThat(adapter.supports("openai", "gpt-4o-mini")).isFalse();
		assertThat(adapter.adapt(ChatRequest.of(List.of())).toString()).contains("/no_think");
	}

	private ChatModel openAi() {
		// tag::openai[]
		ChatModel model = OpenAiChatModel.builder()
			.settings(OpenAiSettings.of("https://api.openai.com/v1", apiKey, "gpt-4o-mini"))
			.webClientBuilder(webClientBuilder)      // Boot's builder: your customisers apply
			.build();
		// end::openai[]
		return model;
	}

	private ChatModel anthropic() {
		// tag::anthropic[]
		ChatModel model = AnthropicChatModel.builder()
			.settings(AnthropicSettings.of(apiKey, "claude-sonnet-4-5")
				.withPromptCaching(true)
				.withDefaultOptions(ChatOptions.builder().maxTokens(8192).build()))
			.webClientBuilder(webClientBuilder)      // Boot's builder: your customisers apply
			.rateLimitListener(listener)             // told every response's headers (anthropic-ratelimit-*)
			.build();
		// end::anthropic[]
		return model;
	}

	private ChatModel gemini() {
		// tag::gemini[]
		ChatModel model = GeminiChatModel.builder()
			.settings(GeminiSettings.of(apiKey, "gemini-2.5-flash"))
			.webClientBuilder(webClientBuilder)
			.build();
		// end::gemini[]
		return model;
	}

	private ChatModel ollama() {
		// tag::ollama[]
		ChatModel model = OllamaChatModel.builder()
			.settings(OllamaChatSettings.of("http://localhost:11434", "qwen3:8b")
				.withKeepAlive("10m")
				.withDefaultOptions(ChatOptions.builder().temperature(0.2).build()))
			.build();
		// end::ollama[]
		return model;
	}

	static Duration timeout() {
		return Duration.ofSeconds(10);
	}

}
