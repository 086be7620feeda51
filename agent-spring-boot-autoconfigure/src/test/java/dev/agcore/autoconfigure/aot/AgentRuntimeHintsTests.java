package dev.agcore.autoconfigure.aot;

import java.lang.reflect.Method;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AgentRuntimeHints}.
 */
class AgentRuntimeHintsTests {

	private final RuntimeHints hints = registered();

	@Test
	void providerWireTypesAreBoundFromJson() throws Exception {
		for (String type : new String[] { "dev.agcore.provider.openai.wire.ChatCompletionResponse",
				"dev.agcore.provider.openai.wire.ChatCompletionChunk", "dev.agcore.provider.openai.wire.WireMessage",
				"dev.agcore.provider.anthropic.wire.MessagesResponse", "dev.agcore.provider.anthropic.wire.StreamEvent",
				"dev.agcore.provider.gemini.wire.GenerateContentResponse",
				"dev.agcore.provider.ollama.wire.OllamaChatResponse" }) {
			assertBound(type);
		}
	}

	@Test
	void nestedRecordsAndEnumsAreBound() throws Exception {
		assertBound("dev.agcore.provider.openai.wire.ChatCompletionResponse$Choice");
		assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of("dev.agcore.run.RunStatus")))
			.accepts(this.hints);
	}

	@Test
	void runWorkflowPlanAndViewRecordsAreBound() throws Exception {
		for (String type : new String[] { "dev.agcore.run.Run", "dev.agcore.run.RunRequest", "dev.agcore.run.RunEvent",
				"dev.agcore.workflow.WorkflowEvent", "dev.agcore.workflow.WorkflowResult", "dev.agcore.plan.Plan",
				"dev.agcore.plan.Step", "dev.agcore.autoconfigure.view.AgentEventViews$ResultView",
				"dev.agcore.autoconfigure.view.AgentEventViews$PlanView",
				"dev.agcore.autoconfigure.web.AgentViews$InvokeRequest" }) {
			assertBound(type);
		}
	}

	@Test
	void classesThatAreNoRecordOrEnumGetNoHint() {
		assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of("dev.agcore.runtime.DefaultAgent")))
			.rejects(this.hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(TypeReference.of("dev.agcore.provider.openai.OpenAiChatModel"))).rejects(this.hints);
	}

	@Test
	void schemaScriptsAreIncluded() {
		for (String store : new String[] { "memory", "run", "workflow" }) {
			for (String platform : new String[] { "h2", "postgresql", "mariadb" }) {
				assertThat(RuntimeHintsPredicates.resource()
					.forResource("dev/agcore/" + store + "/jdbc/schema-" + platform + ".sql")).accepts(this.hints);
			}
		}
	}

	@Test
	void defaultPromptFolderAndOptionalLibrariesResourcesAreIncluded() {
		assertThat(RuntimeHintsPredicates.resource().forResource("prompts/support/greeting.hbs")).accepts(this.hints);
		assertThat(RuntimeHintsPredicates.resource().forResource("org/apache/lucene/analysis/snowball/english_stop.txt"))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.resource().forResource("com/knuddels/jtokkit/o200k_base.tiktoken"))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.resource().forResource("application-secrets.txt")).rejects(this.hints);
	}

	// a record's canonical constructor and accessors, so that Jackson can create and read it
	private void assertBound(String typeName) throws Exception {
		Class<?> type = Class.forName(typeName);
		assertThat(RuntimeHintsPredicates.reflection().onType(type)).as(typeName).accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onConstructorInvocation(type.getDeclaredConstructors()[0]))
			.as(typeName + " constructor")
			.accepts(this.hints);
		if (type.isRecord()) {
			Method accessor = type.getRecordComponents()[0].getAccessor();
			assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(accessor))
				.as(typeName + "." + accessor.getName())
				.accepts(this.hints);
		}
	}

	private static RuntimeHints registered() {
		RuntimeHints hints = new RuntimeHints();
		new AgentRuntimeHints().registerHints(hints, AgentRuntimeHintsTests.class.getClassLoader());
		return hints;
	}

}
