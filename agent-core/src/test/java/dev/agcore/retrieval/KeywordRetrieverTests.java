package dev.agcore.retrieval;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KeywordRetriever}: ranking in English and Chinese, bounds and filters.
 */
class KeywordRetrieverTests {

	private static final List<Document> ENGLISH = List.of(
			new Document("billing", "Billing and invoices", "How invoices are issued each month.",
					"Invoices are sent on the first day of the month. Refunds take five days.", Map.of("team", "finance")),
			new Document("retry", "Retry policy", "How the HTTP client retries failed requests.",
					"The client retries three times with exponential backoff. Set retry.max-attempts to change it.",
					Map.of("team", "platform")),
			new Document("deploy", "Deploying the service", "Steps to deploy to production.",
					"Build the image, push it, then roll out. Rollbacks use the previous image.",
					Map.of("team", "platform")),
			new Document("events", "Messaging", "Where services publish their events.",
					"All domain events go through Kafka. The retention of each topic is seven days.",
					Map.of("team", "platform")));

	private static final List<Document> CHINESE = List.of(
			new Document("cn-retry", "重试策略", "客户端如何重试失败的请求。", "客户端最多重试三次，每次等待时间指数增长。", Map.of()),
			new Document("cn-cache", "缓存配置", "如何配置 Redis 缓存。", "缓存的过期时间默认为十分钟，可以在配置文件中修改。", Map.of()),
			new Document("cn-deploy", "部署服务", "把服务部署到生产环境的步骤。", "先构建镜像，再推送，然后滚动发布。回滚使用上一个镜像。", Map.of()),
			new Document("cn-search", "向量检索", "用嵌入向量检索相似文档。", "向量检索把文本转成向量，再按相似度排序。", Map.of()));

	private final KeywordRetriever english = KeywordRetriever.of(ENGLISH);

	private final KeywordRetriever chinese = KeywordRetriever.of(CHINESE);

	@Test
	void theRelevantEnglishPageComesFirst() {
		List<ScoredDocument> found = this.english.search(SearchRequest.of("how does the client retry failed requests"));

		assertThat(found).isNotEmpty();
		assertThat(found.get(0).document().id()).isEqualTo("retry");
		assertThat(found.get(0).score()).isGreaterThan(0.1).isLessThanOrEqualTo(1.0);
		assertThat(found).extracting(ScoredDocument::score).isSortedAccordingTo((a, b) -> Double.compare(b, a));
	}

	@Test
	void aTitleIdenticalToTheQueryScoresHighest() {
		List<ScoredDocument> found = this.english.search(SearchRequest.of("Retry policy"));

		assertThat(found.get(0).document().id()).isEqualTo("retry");
		assertThat(found.get(0).score()).isGreaterThanOrEqualTo(KeywordRetriever.TITLE_WEIGHT);
	}

	@Test
	void stopWordsDoNotDiluteTheScore() {
		double plain = this.english.search(SearchRequest.of("retry policy")).get(0).score();
		double wordy = this.english.search(SearchRequest.of("What is the retry policy?")).get(0).score();

		assertThat(wordy).isEqualTo(plain);
	}

	@Test
	void pagesMatchingOnlyInTheirContentAreFound() {
		// "kafka" and "retention" appear only in the content of the messaging page
		List<ScoredDocument> found = this.english.search(SearchRequest.of("kafka retention").withMinScore(0.1));

		assertThat(found).extracting((scored) -> scored.document().id()).containsExactly("events");
	}

	@Test
	void theRelevantChinesePageComesFirst() {
		List<ScoredDocument> found = this.chinese.search(SearchRequest.of("客户端怎么重试请求"));

		assertThat(found).isNotEmpty();
		assertThat(found.get(0).document().id()).isEqualTo("cn-retry");
	}

	@Test
	void aChineseQueryFindsPagesThatShareAWordWithIt() {
		// the seed took the whole run as one keyword and found nothing
		assertThat(this.chinese.search(SearchRequest.of("我想知道缓存的过期时间")))
			.extracting((scored) -> scored.document().id())
			.first()
			.isEqualTo("cn-cache");
		assertThat(this.chinese.search(SearchRequest.of("怎样回滚镜像")))
			.extracting((scored) -> scored.document().id())
			.first()
			.isEqualTo("cn-deploy");
	}

	@Test
	void chinesePagesMatchingOnlyInTheirContentAreFound() {
		// 指数 appears only in the content of the retry page
		assertThat(this.chinese.search(SearchRequest.of("指数增长")))
			.extracting((scored) -> scored.document().id())
			.containsExactly("cn-retry");
	}

	@Test
	void aQueryWithoutKeywordsFindsNothing() {
		assertThat(this.english.search(SearchRequest.of(""))).isEmpty();
		assertThat(this.english.search(SearchRequest.of("what is the"))).isEmpty();
		assertThat(this.english.search(SearchRequest.of("quantum chromodynamics"))).isEmpty();
	}

	@Test
	void theMinimumScoreDropsWeakResults() {
		SearchRequest request = SearchRequest.of("retry client requests");
		assertThat(this.english.search(request)).isNotEmpty();
		assertThat(this.english.search(request.withMinScore(0.99))).isEmpty();
	}

	@Test
	void topKCapsTheResults() {
		SearchRequest request = SearchRequest.of("the service client events invoices image");
		assertThat(this.english.search(request)).hasSizeGreaterThan(2);
		assertThat(this.english.search(request.withTopK(2))).hasSize(2);
	}

	@Test
	void filtersKeepOnlyMatchingMetadata() {
		SearchRequest request = SearchRequest.of("month invoices retries").withFilter(Map.of("team", "platform"));

		assertThat(this.english.search(request)).extracting((scored) -> scored.document().id())
			.containsExactly("retry");
	}

	@Test
	void tagsAreSearchedAndScoredLikeTheSummary() {
		KeywordRetriever retriever = KeywordRetriever
			.of(List.of(new Document("a", "Alpha", "", "nothing here", Map.of(KeywordRetriever.TAGS, "observability")),
					new Document("b", "Beta", "", "nothing here either", Map.of())));

		List<ScoredDocument> found = retriever.search(SearchRequest.of("observability"));

		assertThat(found).extracting((scored) -> scored.document().id()).containsExactly("a");
		assertThat(found.get(0).score()).isGreaterThanOrEqualTo(KeywordRetriever.SUMMARY_WEIGHT);
	}

	@Test
	void equalScoresKeepTheOrderDocumentsWereAdded() {
		KeywordRetriever retriever = KeywordRetriever.of(List.of(Document.of("z", "same text about caching"),
				Document.of("a", "same text about caching"), Document.of("m", "same text about caching")));

		assertThat(retriever.search(SearchRequest.of("caching"))).extracting((scored) -> scored.document().id())
			.containsExactly("z", "a", "m");
	}

	@Test
	void documentsAreReplacedAndDeleted() {
		KeywordRetriever retriever = new KeywordRetriever();
		StepVerifier.create(retriever.add(List.of(Document.of("a", "about caching"), Document.of("b", "about kafka"))))
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		StepVerifier.create(retriever.add(List.of(Document.of("a", "about kafka now"))))
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		StepVerifier.create(retriever.delete(List.of("b", "unknown"))).expectComplete().verify(Duration.ofSeconds(5));

		assertThat(retriever.size()).isEqualTo(1);
		StepVerifier.create(retriever.retrieve(SearchRequest.of("kafka")))
			.assertNext((found) -> assertThat(found).extracting((scored) -> scored.document().content())
				.containsExactly("about kafka now"))
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(retriever.search(SearchRequest.of("caching"))).isEmpty();
	}

	@Test
	void longQueriesAreCut() {
		String padding = "zzzz ".repeat(KeywordRetriever.MAX_QUERY_LENGTH / 5);
		assertThat(this.english.search(SearchRequest.of("kafka " + padding))).isNotEmpty();
		assertThat(this.english.search(SearchRequest.of(padding + "kafka"))).isEmpty();
	}

}
