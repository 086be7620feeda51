package dev.agcore.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.memory.Conversation;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.jdbc.JdbcConversationStore;
import dev.agcore.memory.jdbc.JdbcMemorySchema;
import dev.agcore.memory.redis.RedisConversationStore;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.UserMessage;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

/**
 * What one turn costs the conversation store, by store and by the length of the history
 * already stored: appending a turn (a question and an answer) and reading the newest 50
 * messages, as a turn does. Each iteration starts from a session holding exactly
 * {@code history} messages. The PostgreSQL case needs the server of the machine
 * (127.0.0.1:5432, database {@code test}, user {@code postgres}), the Redis case the one
 * at 127.0.0.1:6379.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = { "-Xms1g", "-Xmx1g" })
public class ConversationStoreBenchmark {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final List<Message> TURN = List.of(new UserMessage("What is the weather in Paris?"),
			AssistantMessage.of("It is 21 degrees and sunny in Paris."));

	/** The store: {@code in-memory}, {@code h2} (in memory) or {@code postgresql}. */
	@Param({ "in-memory", "h2", "postgresql", "redis" })
	public String store;

	/** Messages already in the session. */
	@Param({ "10", "1000", "10000" })
	public int history;

	private ConversationStore conversations;

	private @Nullable HikariDataSource dataSource;

	private @Nullable LettuceConnectionFactory redisConnections;

	private final String prefix = "bench_" + UUID.randomUUID().toString().substring(0, 8) + "_";

	private String session;

	private long version;

	@Setup(Level.Trial)
	public void createStore() {
		// room for the history and everything the iterations append: nothing is trimmed
		int capacity = 10_000_000;
		this.conversations = switch (this.store) {
			case "in-memory" -> new InMemoryConversationStore(InMemoryConversationStore.DEFAULT_MAX_SESSIONS, capacity);
			case "h2" -> jdbc("jdbc:h2:mem:bench-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "h2", capacity);
			case "postgresql" -> jdbc("jdbc:postgresql://127.0.0.1:5432/test", "postgres", "postgresql", capacity);
			case "redis" -> redis(capacity);
			default -> throw new IllegalArgumentException("Unknown store '" + this.store + "'");
		};
	}

	private ConversationStore jdbc(String url, String user, String platform, int capacity) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setUsername(user);
		config.setMaximumPoolSize(4);
		this.dataSource = new HikariDataSource(config);
		JdbcMemorySchema.create(this.dataSource, platform, this.prefix);
		return JdbcConversationStore.builder(this.dataSource)
			.tablePrefix(this.prefix)
			.maxMessagesPerSession(capacity)
			.build();
	}

	private ConversationStore redis(int capacity) {
		this.redisConnections = new LettuceConnectionFactory("127.0.0.1", 6379);
		this.redisConnections.afterPropertiesSet();
		this.redisConnections.start();
		return new RedisConversationStore(new ReactiveStringRedisTemplate(this.redisConnections), this.prefix, 0,
				capacity, Duration.ofHours(1), Duration.ofMinutes(10));
	}

	@Setup(Level.Iteration)
	public void fillSession() {
		this.session = "bench-" + UUID.randomUUID();
		this.version = 0;
		List<Message> batch = new ArrayList<>();
		for (int i = 0; i < this.history; i++) {
			batch.add((i % 2 == 0) ? TURN.get(0) : TURN.get(1));
			if (batch.size() == 1000 || i == this.history - 1) {
				this.conversations.append(this.session, this.version++, batch).block(TIMEOUT);
				batch = new ArrayList<>();
			}
		}
	}

	@TearDown(Level.Trial)
	public void dropTables() {
		if (this.redisConnections != null) {
			// the benchmark's keys expire with the session time-to-live of an hour
			this.redisConnections.destroy();
		}
		if (this.dataSource != null) {
			JdbcMemorySchema.drop(this.dataSource, this.prefix);
			this.dataSource.close();
		}
	}

	@Benchmark
	public long appendTurn() {
		this.conversations.append(this.session, this.version, TURN).block(TIMEOUT);
		return ++this.version;
	}

	@Benchmark
	public Conversation loadRecent50() {
		return this.conversations.loadRecent(this.session, 50).block(TIMEOUT);
	}

}
