package dev.agcore.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import dev.agcore.retrieval.Document;
import dev.agcore.retrieval.KeywordRetriever;
import dev.agcore.retrieval.ScoredDocument;
import dev.agcore.retrieval.SearchRequest;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One search of the {@link KeywordRetriever} behind the knowledge store and the
 * {@code retrieve} tool: keyword extraction, candidate matching and Dice scoring of every
 * candidate. Pages of about 3,000 characters drawn from a fixed vocabulary, so most pages
 * are candidates: close to the worst case for a given number of pages.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = { "-Xms1g", "-Xmx1g" })
public class KeywordSearchBenchmark {

	private static final String[] ENGLISH = { "client", "retry", "policy", "request", "timeout", "kafka", "topic",
			"event", "invoice", "billing", "deploy", "image", "cache", "redis", "expiry", "agent", "model", "tool",
			"memory", "session", "the", "of", "and", "is", "with" };

	private static final String[] CHINESE = { "客户端", "重试", "策略", "请求", "超时", "消息", "主题", "事件", "账单", "部署",
			"镜像", "缓存", "过期", "智能体", "模型", "工具", "记忆", "会话", "的", "和", "是" };

	/** Number of pages in the index. */
	@Param({ "100", "1000" })
	public int pages;

	/** Language of pages and query: {@code en} or {@code zh}. */
	@Param({ "en", "zh" })
	public String language;

	private KeywordRetriever retriever;

	private SearchRequest request;

	@Setup
	public void setUp() {
		boolean english = "en".equals(this.language);
		String[] words = english ? ENGLISH : CHINESE;
		String separator = english ? " " : "";
		Random random = new Random(42);
		List<Document> documents = new ArrayList<>(this.pages);
		for (int i = 0; i < this.pages; i++) {
			documents.add(new Document("page-" + i, text(random, words, separator, 3),
					text(random, words, separator, 12), text(random, words, separator, english ? 450 : 900), Map.of()));
		}
		this.retriever = KeywordRetriever.of(documents);
		this.request = SearchRequest.of(english ? "how does the client retry a failed kafka request" : "客户端如何重试失败的请求")
			.withTopK(5)
			.withMinScore(0.1);
	}

	@Benchmark
	public List<ScoredDocument> search() {
		return this.retriever.search(this.request);
	}

	private static String text(Random random, String[] words, String separator, int count) {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < count; i++) {
			text.append(words[random.nextInt(words.length)]).append(separator);
		}
		return text.toString().strip();
	}

}
