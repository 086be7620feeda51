package dev.agcore.sample;

import java.nio.file.Path;

import dev.agcore.sample.middleware.TodayPrompt;
import dev.agcore.sample.tools.OrderTools;
import dev.agcore.sample.workflow.ReturnTasks;
import dev.agcore.sample.workflow.ReturnWorkflow;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.SpringApplicationAotProcessor;
import org.springframework.context.aot.AbstractAotProcessor.Settings;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample app processed ahead of time, as {@code process-aot} does for a native
 * image: the hints cover its tools, workflow and middleware, the starter's wire types and
 * schema scripts, and its knowledge folder; the {@code @Task} proxy is generated.
 */
class SampleAotProcessingTests {

	@TempDir
	static Path output;

	private static RuntimeHints hints;

	@BeforeAll
	static void processAheadOfTime() {
		Settings settings = Settings.builder()
			.sourceOutput(output.resolve("sources"))
			.resourceOutput(output.resolve("resources"))
			.classOutput(output.resolve("classes"))
			.groupId("dev.agcore")
			.artifactId("sample-app")
			.build();
		HintsCapturingProcessor processor = new HintsCapturingProcessor(settings);
		processor.process();
		hints = processor.hints;
	}

	@Test
	void toolWorkflowAndMiddlewareMethodsAreInvocable() throws Exception {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(OrderTools.class, "getOrderStatus"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ReturnTasks.class, "quoteRefund"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ReturnWorkflow.class, "returnRequest"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(TodayPrompt.class, "prompt"))
			.accepts(hints);
	}

	@Test
	void workflowRecordsAreBoundFromJson() throws Exception {
		assertThat(RuntimeHintsPredicates.reflection().onType(ReturnWorkflow.ReturnRequest.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ReturnTasks.RefundQuote.class, "amount"))
			.accepts(hints);
	}

	@Test
	void taskProxyIsGeneratedAtBuildTime() {
		// the class file is written only when the proxy class is new to this JVM (process-aot's is fresh);
		// the hint for it is registered in any case
		String proxy = ReturnTasks.class.getName() + "$$SpringCGLIB$$";
		assertThat(hints.reflection().typeHints()).anyMatch((hint) -> hint.getType().getName().startsWith(proxy));
	}

	@Test
	void starterTypesAndResourcesAreIncluded() {
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(TypeReference.of("dev.agcore.provider.openai.wire.ChatCompletionResponse"))).accepts(hints);
		assertThat(RuntimeHintsPredicates.resource().forResource("dev/agcore/memory/jdbc/schema-h2.sql"))
			.accepts(hints);
		// agent.knowledge.path: classpath:knowledge
		assertThat(RuntimeHintsPredicates.resource().forResource("knowledge/returns.md")).accepts(hints);
		// the files ShopFiles copies for the librarian's MCP server
		assertThat(RuntimeHintsPredicates.resource().forResource("shop-files/opening-hours.md")).accepts(hints);
		assertThat(output.resolve("resources/META-INF/native-image/dev.agcore/sample-app/reachability-metadata.json"))
			.isRegularFile();
	}

	/** Keeps the hints it writes, for the predicates. */
	static class HintsCapturingProcessor extends SpringApplicationAotProcessor {

		private @Nullable RuntimeHints hints;

		HintsCapturingProcessor(Settings settings) {
			super(SampleApplication.class, settings, new String[0]);
		}

		@Override
		protected void writeHints(RuntimeHints hints) {
			this.hints = hints;
			super.writeHints(hints);
		}

	}

}
