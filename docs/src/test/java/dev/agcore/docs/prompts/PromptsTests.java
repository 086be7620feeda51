package dev.agcore.docs.prompts;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import dev.agcore.AgentPrincipal;
import dev.agcore.docs.prompts.CustomerVariables.CustomerRepository;
import dev.agcore.docs.support.SnippetContexts;
import dev.agcore.message.Message;
import dev.agcore.model.ChatRequest;
import dev.agcore.prompt.PromptTemplates;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;

/** The snippets of docs/prompts.md. */
class PromptsTests {

	/** The template at the top of the page (the classpath one is the agent section's). */
	private static final String SUPPORT_SYSTEM = """
			You are the support assistant of {{shop}}. You are talking to {{customer.name}}.
			{{#if customer.vip}}They are a VIP customer: offer free returns.{{else}}Returns cost 5 EUR.{{/if}}
			Open orders:
			{{#each orders}}- {{item.id}}: {{item.status}}
			{{/each}}
			{{> shared/tone}}
			Write placeholders as {{#raw}}{{order_id}}{{/raw}}.""";

	private final ScriptedChatModel model = ScriptedChatModel.answering((request) -> ScriptedChatModel.text("Hello."));

	@Test
	void theRegistryRendersTheSupportTemplate() {
		PromptTemplates templates = new PromptTemplates();
		templates.register("shared/tone", "Answer in a {{tone}} way.");
		templates.register("support/system", SUPPORT_SYSTEM);
		SupportPrompts prompts = new SupportPrompts();
		prompts.templates = templates;
		assertThat(prompts.prompt()).contains("of Tea & Co. You are talking to Ada.")
			.contains("offer free returns")
			.contains("- A-1001: shipped")
			.contains("Answer in a friendly way.")
			.contains("Write placeholders as {{order_id}}.");
	}

	@Test
	void templatesWorkWithoutSpringBoot() {
		assertThat(StandaloneTemplates.render()).isEqualTo("You help Ada. Answer in a calm way.|Hello Ada");
	}

	@Test
	void theConfiguredAgentsPromptHasEveryLayer() {
		List<String> users = new ArrayList<>();
		CustomerRepository customers = (userId) -> {
			users.add(userId);
			return Mono.just("Ada");
		};
		SnippetContexts.yaml("prompts/support-agent.yml", this.model)
			.withUserConfiguration(CustomerVariables.class)
			.withBean(CustomerRepository.class, () -> customers)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				context.getBean(AgentRegistry.class)
					.get("support")
					.invoke(AgentRequest.of("s1", "Where is my order?"))
					.contextWrite(AgentPrincipal.context(AgentPrincipal.of("u1")))
					.block(Duration.ofSeconds(10));
				assertThat(texts(this.model.requests().get(0))).contains("Never promise refunds; the shop's policies decide.")
					.contains("You are the support assistant of Tea & Co.")
					.contains("Opening hours");
				assertThat(users).containsExactly("u1");
			});
	}

	@Test
	void anAgentBuiltInJavaHasTheSameLayers() {
		PromptTemplates templates = new PromptTemplates();
		templates.register("support/system", "You are the support assistant of {{shop}}.");
		SupportAgents.ask(this.model, templates);
		assertThat(texts(this.model.requests().get(0))).contains("Never promise refunds.")
			.contains("You are the support assistant of Tea & Co.")
			.contains("Opening hours")
			.contains("Answer in German.");
	}

	@Test
	void composedMessagesAreInOrder() {
		PromptTemplates templates = new PromptTemplates();
		templates.register("support/system", "You are the support assistant of {{shop}}.");
		List<Message> messages = ComposedMessages.compose(templates);
		assertThat(messages).hasSize(5);
		assertThat(messages.get(0).text()).isEqualTo("You are the support assistant of Tea & Co.");
	}

	private static String texts(ChatRequest request) {
		return request.messages().stream().map(Message::text).collect(Collectors.joining("\n"));
	}

}
