package dev.agcore.autoconfigure.run;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.autoconfigure.web.AgentWebAutoConfiguration;
import dev.agcore.autoconfigure.workflow.WorkflowAutoConfiguration;
import dev.agcore.memory.ConversationStore;
import dev.agcore.message.Message;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.runtime.Agent;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.workflow.annotation.Entrypoint;
import dev.agcore.workflow.annotation.Task;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.http.codec.autoconfigure.CodecsAutoConfiguration;
import org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.HttpHandlerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * One instance of the application of the two-instance run tests: a reactive web server on
 * a random port with the run routes, an agent {@code assistant} whose model answers at
 * once, and a workflow {@code steps} of three tasks. What every instance executed is
 * counted in static state shared by the instances of a test (they run in one JVM).
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration({ NettyReactiveWebServerAutoConfiguration.class, HttpHandlerAutoConfiguration.class,
		WebFluxAutoConfiguration.class, CodecsAutoConfiguration.class, ChatModelAutoConfiguration.class,
		ToolAutoConfiguration.class, ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
		AgentAutoConfiguration.class, RunAutoConfiguration.class, RunScheduleAutoConfiguration.class,
		WorkflowAutoConfiguration.class,
		AgentWebAutoConfiguration.class })
class TwoInstancesApplication {

	/** The instances that executed a turn of the agent, by the turn's message. */
	static final Map<String, Queue<String>> TURNS = new ConcurrentHashMap<>();

	/** How many turns each instance began. */
	static final Map<String, AtomicInteger> TURNS_BY_INSTANCE = new ConcurrentHashMap<>();

	/**
	 * When set, an instance's turns wait (without blocking a thread) until the other
	 * instance began one, so that both instances execute some runs.
	 */
	static final AtomicBoolean WAIT_FOR_OTHER = new AtomicBoolean();

	/** The instances that ran each task of the workflow, in order. */
	static final Queue<String> FIRST = new ConcurrentLinkedQueue<>();

	static final Queue<String> SECOND = new ConcurrentLinkedQueue<>();

	static final Queue<String> THIRD = new ConcurrentLinkedQueue<>();

	/** When set, the first call of the second task waits for {@link #release}. */
	static final AtomicBoolean BLOCK_FIRST_SECOND = new AtomicBoolean();

	static volatile CountDownLatch entered = new CountDownLatch(1);

	static volatile CountDownLatch release = new CountDownLatch(1);

	static void reset() {
		TURNS.clear();
		TURNS_BY_INSTANCE.clear();
		WAIT_FOR_OTHER.set(false);
		FIRST.clear();
		SECOND.clear();
		THIRD.clear();
		BLOCK_FIRST_SECOND.set(false);
		entered = new CountDownLatch(1);
		release.countDown();
		release = new CountDownLatch(1);
	}

	@Bean
	ChatModel countingModel(@Value("${test.instance}") String instance) {
		return new CountingModel(instance);
	}

	@Bean
	Agent assistant(ChatModel countingModel, ConversationStore conversationStore) {
		return Agent.builder().name("assistant").model(countingModel).conversationStore(conversationStore).build();
	}

	@Bean
	StepTasks stepTasks(@Value("${test.instance}") String instance) {
		return new StepTasks(instance);
	}

	@Bean
	StepsWorkflow stepsWorkflow(StepTasks stepTasks) {
		return new StepsWorkflow(stepTasks);
	}

	/**
	 * Answers {@code done: <message>} at once, counting the turn.
	 */
	static final class CountingModel implements ChatModel {

		private final String instance;

		private final ChatModel answers = ScriptedChatModel
			.answering((request) -> ScriptedChatModel.text("done: " + lastUserText(request.messages())))
			.withoutRecording();

		CountingModel(String instance) {
			this.instance = instance;
		}

		@Override
		public Mono<ChatResponse> call(ChatRequest request) {
			return begin(request).then(this.answers.call(request));
		}

		@Override
		public Flux<ChatChunk> stream(ChatRequest request) {
			return begin(request).thenMany(this.answers.stream(request));
		}

		private Mono<Void> begin(ChatRequest request) {
			return Mono.defer(() -> {
				TURNS.computeIfAbsent(lastUserText(request.messages()), (key) -> new ConcurrentLinkedQueue<>())
					.add(this.instance);
				TURNS_BY_INSTANCE.computeIfAbsent(this.instance, (key) -> new AtomicInteger()).incrementAndGet();
				if (!WAIT_FOR_OTHER.get()) {
					return Mono.empty();
				}
				return Flux.interval(Duration.ofMillis(20))
					.filter((tick) -> TURNS_BY_INSTANCE.keySet().stream().anyMatch((i) -> !i.equals(this.instance)))
					.next()
					.timeout(Duration.ofSeconds(10), Mono.just(0L))
					.then();
			});
		}

		private static String lastUserText(List<Message> messages) {
			for (int i = messages.size() - 1; i >= 0; i--) {
				if (messages.get(i) instanceof UserMessage user) {
					return user.text();
				}
			}
			return "";
		}

	}

	/**
	 * Three tasks recording the instance that ran them; the second can wait for a latch.
	 */
	static class StepTasks {

		private final String instance;

		StepTasks(String instance) {
			this.instance = instance;
		}

		@Task
		public String first(String topic) {
			FIRST.add(this.instance);
			return "1:" + topic;
		}

		@Task
		public String second(String previous) {
			boolean block = SECOND.isEmpty() && BLOCK_FIRST_SECOND.get();
			SECOND.add(this.instance);
			if (block) {
				entered.countDown();
				try {
					if (!release.await(30, TimeUnit.SECONDS)) {
						throw new IllegalStateException("The latch of the second task was never released");
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException("Interrupted in the second task", ex);
				}
			}
			return previous + ",2";
		}

		@Task
		public String third(String previous) {
			THIRD.add(this.instance);
			return previous + ",3";
		}

	}

	/**
	 * The workflow {@code steps}: first, second, third.
	 */
	static class StepsWorkflow {

		private final StepTasks tasks;

		StepsWorkflow(StepTasks tasks) {
			this.tasks = tasks;
		}

		@Entrypoint(name = "steps")
		public String steps(JsonNode input) {
			String first = this.tasks.first(input.path("topic").asString());
			String second = this.tasks.second(first);
			return this.tasks.third(second);
		}

	}

}
