package dev.agcore.autoconfigure.retrieval;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.message.ToolCall;
import dev.agcore.model.ChatModel;
import dev.agcore.retrieval.KeywordRetriever;
import dev.agcore.retrieval.RetrieveTool;
import dev.agcore.retrieval.knowledge.KnowledgeIndexEntry;
import dev.agcore.retrieval.knowledge.KnowledgePage;
import dev.agcore.retrieval.knowledge.KnowledgeStore;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolRegistry;
import dev.agcore.tool.ToolSpec;
import dev.agcore.autoconfigure.embedding.EmbeddingModelAutoConfiguration;
import dev.agcore.autoconfigure.retrieval.lucene.LuceneIndexAutoConfiguration;
import dev.agcore.retrieval.SearchRequest;
import dev.agcore.retrieval.lucene.LuceneDocumentIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KnowledgeAutoConfiguration}.
 */
class KnowledgeAutoConfigurationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private static final ToolContext CONTEXT = new ToolContext("call-1", "s1", "agent", Map.of());

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ConversationStoreAutoConfiguration.class, ToolAutoConfiguration.class,
				KnowledgeAutoConfiguration.class));

	@TempDir
	Path folder;

	@Test
	void withoutAPathThereIsNoKnowledgeStoreNorTool() {
		this.contextRunner.run((context) -> {
			assertThat(context).doesNotHaveBean(KnowledgeStore.class)
				.doesNotHaveBean(KeywordRetriever.class)
				.doesNotHaveBean(RetrieveTool.class);
			assertThat(context.getBean(ToolRegistry.class).names()).doesNotContain("retrieve");
		});
	}

	@Test
	void aClasspathFolderIsLoadedAndBadFilesAreSkipped() {
		this.contextRunner.withPropertyValues("agent.knowledge.path=classpath:knowledge-test").run((context) -> {
			KnowledgeStore store = context.getBean(KnowledgeStore.class);
			assertThat(store.name()).isEqualTo("default");
			assertThat(store.index()).extracting(KnowledgeIndexEntry::id).containsExactly("guides/kafka", "retry");
			assertThat(store.index().get(1).tags()).containsExactly("http", "resilience");
			assertThat(store.search("kafka retention").block(TIMEOUT))
				.extracting((scored) -> scored.document().id())
				.first()
				.isEqualTo("guides/kafka");
		});
	}

	@Test
	void theRetrieveToolSearchesTheStore() {
		this.contextRunner.withPropertyValues("agent.knowledge.path=classpath:knowledge-test").run((context) -> {
			ToolCallback tool = context.getBean(ToolRegistry.class).find("retrieve").orElseThrow();
			JsonNode answer = AgentJson.mapper().readTree(tool.call("{\"query\": \"retry policy\"}", CONTEXT));
			assertThat(answer.get("results").get(0).get("id").asString()).isEqualTo("retry");
			assertThat(answer.get("results").get(0).get("content").asString())
				.isEqualTo("The client retries three times with exponential backoff.");
		});
	}

	@Test
	void withTheLuceneIndexTheRetrieveToolSearchesItWithoutTheKeywordMinimumScore() {
		this.contextRunner
			.withConfiguration(AutoConfigurations.of(EmbeddingModelAutoConfiguration.class,
					LuceneIndexAutoConfiguration.class))
			.withPropertyValues("agent.knowledge.path=classpath:knowledge-test", "agent.knowledge.index=lucene",
					"agent.embedding.provider=none")
			.run((context) -> {
				LuceneDocumentIndex lucene = context.getBean(LuceneDocumentIndex.class);
				assertThat(lucene.keywordChannel().retrieve(SearchRequest.of("kafka retention")).block(TIMEOUT))
					.extracting((scored) -> scored.document().id())
					.contains("guides/kafka");
				ToolCallback tool = context.getBean(ToolRegistry.class).find("retrieve").orElseThrow();
				JsonNode answer = AgentJson.mapper().readTree(tool.call("{\"query\": \"retry policy\"}", CONTEXT));
				assertThat(answer.get("results").get(0).get("id").asString()).isEqualTo("retry");
			});
	}

	@Test
	void aLuceneIndexThatIsNotThereFailsNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("agent.knowledge.path=classpath:knowledge-test", "agent.knowledge.index=lucene")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.knowledge.index is 'lucene' but there is no Lucene index"));
	}

	@Test
	void aFileSystemFolderIsLoadedIntoTheNamedStore() throws IOException {
		Files.writeString(this.folder.resolve("faq.md"), "# FAQ\n\nAnswers to frequent questions.");
		this.contextRunner
			.withPropertyValues("agent.knowledge.path=" + this.folder, "agent.knowledge.namespace=support")
			.run((context) -> {
				KnowledgeStore store = context.getBean(KnowledgeStore.class);
				assertThat(store.name()).isEqualTo("support");
				assertThat(store.get("faq").block(TIMEOUT).summary()).isEqualTo("Answers to frequent questions.");
				assertThat(context.getBean(KeyValueStore.class).keys("knowledge:support").block(TIMEOUT))
					.containsExactly("faq");
			});
	}

	@Test
	void pagesOfAPersistentStoreAreKeptAndReloadedFilesKeepTheirCreationTime() throws IOException {
		Files.writeString(this.folder.resolve("faq.md"), "# FAQ\n\nNew text.");
		InMemoryKeyValueStore keyValues = new InMemoryKeyValueStore();
		Instant before = Instant.parse("2020-01-01T00:00:00Z");
		KnowledgeStore earlier = new KnowledgeStore(keyValues, "default");
		earlier.add(KnowledgePage.of("agent-note", "Written by an agent", "", "")).block(TIMEOUT);
		earlier.add(KnowledgePage.of("faq", "Old FAQ", "", "Old text.")).block(TIMEOUT);
		// make the stored page look older
		JsonNode stored = keyValues.get("knowledge:default", "faq").block(TIMEOUT);
		keyValues.put("knowledge:default", "faq",
				((tools.jackson.databind.node.ObjectNode) stored).put("createdAt", before.toString()))
			.block(TIMEOUT);
		this.contextRunner.withBean(KeyValueStore.class, () -> keyValues)
			.withPropertyValues("agent.knowledge.path=" + this.folder)
			.run((context) -> {
				KnowledgeStore store = context.getBean(KnowledgeStore.class);
				assertThat(store.index()).extracting(KnowledgeIndexEntry::id).containsExactly("agent-note", "faq");
				KnowledgePage faq = store.get("faq").block(TIMEOUT);
				assertThat(faq.title()).isEqualTo("FAQ");
				assertThat(faq.createdAt()).isEqualTo(before);
				assertThat(faq.updatedAt()).isAfter(before);
			});
	}

	@Test
	void aMissingFolderFailsStartupNamingTheProperty() {
		String missing = this.folder.resolve("missing").toString();
		assertStartupFails(this.contextRunner.withPropertyValues("agent.knowledge.path=" + missing),
				"agent.knowledge.path '" + missing + "' is not a readable folder");
		assertStartupFails(this.contextRunner.withPropertyValues("agent.knowledge.path=classpath:no-such-folder"),
				"agent.knowledge.path 'classpath:no-such-folder' does not exist");
		assertStartupFails(this.contextRunner.withPropertyValues("agent.knowledge.path= "),
				"agent.knowledge.path '' is empty");
	}

	@Test
	void invalidToolSettingsFailStartupNamingTheProperty() {
		ApplicationContextRunner runner = this.contextRunner
			.withPropertyValues("agent.knowledge.path=classpath:knowledge-test");
		assertStartupFails(runner.withPropertyValues("agent.knowledge.tool.top-k=0"),
				"agent.knowledge.tool.top-k must be at least 1 (was 0)");
		assertStartupFails(runner.withPropertyValues("agent.knowledge.tool.top-k=5", "agent.knowledge.tool.max-top-k=3"),
				"agent.knowledge.tool.max-top-k (3) is smaller than agent.knowledge.tool.top-k (5)");
		assertStartupFails(runner.withPropertyValues("agent.knowledge.tool.min-score=2"),
				"agent.knowledge.tool.min-score must be between 0 and 1 (was 2.0)");
		assertStartupFails(runner.withPropertyValues("agent.knowledge.namespace= "), "agent.knowledge.namespace is empty");
	}

	@Test
	void theToolDefaultsAreTheCoreDefaults() {
		KnowledgeProperties.Tool tool = new KnowledgeProperties().getTool();
		// the minimum score depends on the index: the keyword index's is the core default
		assertThat(tool.getMinScore()).isNull();
		assertThat(new RetrieveTool.Options(tool.getTopK(), tool.getMaxTopK(), 0.1,
				tool.getMaxContentLength(), Map.of()))
			.isEqualTo(RetrieveTool.Options.DEFAULTS);
	}

	@Test
	void theToolCanBeSwitchedOff() {
		this.contextRunner
			.withPropertyValues("agent.knowledge.path=classpath:knowledge-test", "agent.knowledge.tool.enabled=false")
			.run((context) -> assertThat(context).hasSingleBean(KnowledgeStore.class)
				.doesNotHaveBean(RetrieveTool.class));
	}

	@Test
	void anApplicationKnowledgeStoreGetsTheToolWithoutAPath() {
		KnowledgeStore own = new KnowledgeStore(new InMemoryKeyValueStore(), "own");
		own.add(KnowledgePage.of("p", "Pricing", "", "Plans and prices.")).block(TIMEOUT);
		this.contextRunner.withBean(KnowledgeStore.class, () -> own).run((context) -> {
			assertThat(context.getBean(KnowledgeStore.class)).isSameAs(own);
			ToolCallback tool = context.getBean(ToolRegistry.class).find("retrieve").orElseThrow();
			assertThat(tool.call("{\"query\": \"pricing\"}", CONTEXT)).contains("\"id\":\"p\"");
		});
	}

	@Test
	void anAgentListingTheToolSearchesTheKnowledge() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				ScriptedChatModel.toolCalls(new ToolCall("call-1", "retrieve", "{\"query\":\"kafka retention\"}")),
				ScriptedChatModel.text("Seven days."));
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
					ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
					AgentAutoConfiguration.class, KnowledgeAutoConfiguration.class))
			.withBean("scripted", ChatModel.class, () -> model)
			.withPropertyValues("agent.knowledge.path=classpath:knowledge-test",
					"agent.agents.assistant.tools=group:knowledge")
			.run((context) -> {
				Agent agent = context.getBean(Agent.class);
				assertThat(agent.tools()).extracting(ToolSpec::name).containsExactly("retrieve");
				AgentResult result = agent.call("s1", "How long are events kept?");
				assertThat(result.toolExecutions()).singleElement().satisfies((execution) -> {
					assertThat(execution.error()).isFalse();
					assertThat(execution.result()).contains("\"id\":\"guides/kafka\"");
				});
			});
	}

	private static void assertStartupFails(ApplicationContextRunner runner, String message) {
		runner.run((AssertableApplicationContext context) -> assertThat(context).getFailure()
			.rootCause()
			.isInstanceOf(AgentConfigurationException.class)
			.hasMessageContaining(message));
	}

}
