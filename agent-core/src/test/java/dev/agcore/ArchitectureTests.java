package dev.agcore;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The package rules of agent-core, as docs/architecture.md describes them: packages
 * depend in one direction, providers stay behind the model SPI, and nothing here needs
 * Spring Boot.
 */
class ArchitectureTests {

	private static final String[] LEAVES = { "Root", "Json", "Context" };

	private static final JavaClasses CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.agcore");

	@Test
	void packagesUseOnlyWhatLiesBelowThem() {
		layeredArchitecture().consideringOnlyDependenciesInLayers()
			.layer("Root").definedBy("dev.agcore")
			.layer("Json").definedBy("dev.agcore.json..")
			// Context: the caller's context carried to tool and hook threads, which every layer may open
			.layer("Context").definedBy("dev.agcore.context..")
			.layer("Message").definedBy("dev.agcore.message..")
			.layer("Memory").definedBy("dev.agcore.memory..")
			.layer("Embedding").definedBy("dev.agcore.embedding..")
			.layer("Tool").definedBy("dev.agcore.tool..")
			.layer("Model").definedBy("dev.agcore.model..")
			.layer("Prompt").definedBy("dev.agcore.prompt..")
			.layer("Provider").definedBy("dev.agcore.provider..")
			.layer("Resilience").definedBy("dev.agcore.resilience..")
			.layer("Observation").definedBy("dev.agcore.observation..")
			.layer("Testing").definedBy("dev.agcore.testing", "dev.agcore.testing.replay..")
			// TestingAssertions: assertions on what agents produce, so above the runtime; nothing uses them
			.layer("TestingAssertions").definedBy("dev.agcore.testing.assertj..")
			.layer("Middleware").definedBy("dev.agcore.middleware..")
			.layer("Retrieval").definedBy("dev.agcore.retrieval..")
			.layer("Audit").definedBy("dev.agcore.audit..")
			.layer("Budget").definedBy("dev.agcore.budget..")
			.layer("Plan").definedBy("dev.agcore.plan")
			.layer("Runtime").definedBy("dev.agcore.runtime..")
			.layer("Task").definedBy("dev.agcore.plan.task..")
			.layer("Mcp").definedBy("dev.agcore.mcp..")
			.layer("A2a").definedBy("dev.agcore.a2a..")
			.layer("Chain").definedBy("dev.agcore.chain..")
			.layer("Run").definedBy("dev.agcore.run..")
			.layer("Workflow").definedBy("dev.agcore.workflow..")
			.whereLayer("Root").mayNotAccessAnyLayer()
			.whereLayer("Json").mayNotAccessAnyLayer()
			.whereLayer("Context").mayNotAccessAnyLayer()
			.whereLayer("Message").mayOnlyAccessLayers(with("Message"))
			.whereLayer("Memory").mayOnlyAccessLayers(with("Message"))
			.whereLayer("Embedding").mayOnlyAccessLayers(with("Model", "Message"))
			.whereLayer("Tool").mayOnlyAccessLayers(with("Memory", "Message"))
			.whereLayer("Model").mayOnlyAccessLayers(with("Tool", "Memory", "Message"))
			.whereLayer("Prompt").mayOnlyAccessLayers(with("Message"))
			.whereLayer("Provider").mayOnlyAccessLayers(with("Model", "Embedding", "Tool", "Memory", "Message"))
			.whereLayer("Resilience").mayOnlyAccessLayers(with("Model", "Tool", "Memory", "Message"))
			.whereLayer("Observation").mayOnlyAccessLayers(with("Model", "Tool", "Memory", "Message"))
			.whereLayer("Testing").mayOnlyAccessLayers(with("Model", "Tool", "Memory", "Message"))
			.whereLayer("TestingAssertions")
			.mayOnlyAccessLayers(with("Testing", "Runtime", "Plan", "Model", "Tool", "Memory", "Message"))
			.whereLayer("Middleware").mayOnlyAccessLayers(with("Model", "Tool", "Memory", "Message"))
			.whereLayer("Retrieval")
			.mayOnlyAccessLayers(with("Middleware", "Model", "Embedding", "Tool", "Memory", "Message"))
			// Audit: redacts with the PII middleware's detectors; its JDBC sink shares the memory stores' schema rules
			.whereLayer("Audit").mayOnlyAccessLayers(with("Middleware", "Memory"))
			// Budget: a middleware whose refusals are audited; its JDBC store shares the memory stores' schema rules
			.whereLayer("Budget").mayOnlyAccessLayers(with("Audit", "Middleware", "Model", "Memory", "Message"))
			// Plan: plain data (plans, steps, the parser), which the runtime's plan events carry
			.whereLayer("Plan").mayOnlyAccessLayers(with())
			// Retrieval: the retrieval-qa runner searches the agent's Retriever
			.whereLayer("Runtime")
			.mayOnlyAccessLayers(with("Audit", "Middleware", "Observation", "Prompt", "Retrieval", "Plan", "Model",
					"Tool", "Memory", "Message"))
			// Task: the TaskAgent runs plans through an agent
			.whereLayer("Task")
			.mayOnlyAccessLayers(with("Runtime", "Plan", "Middleware", "Observation", "Model", "Tool", "Memory",
					"Message"))
			.whereLayer("Mcp")
			.mayOnlyAccessLayers(with("Runtime", "Middleware", "Observation", "Model", "Tool", "Memory", "Message"))
			// A2a: remote agents are tools that nest their events in the calling turn's; the A2A
			// server runs agent turns, keeps its tasks in the key-value store, lists tools as skills
			.whereLayer("A2a").mayOnlyAccessLayers(with("Runtime", "Tool", "Memory", "Message"))
			.whereLayer("Chain")
			.mayOnlyAccessLayers(with("Runtime", "Prompt", "Retrieval", "Observation", "Model", "Message"))
			// Runtime: a request's session id is bounded as an agent request's; Memory: the JDBC and
			// Redis run stores reuse the memory stores' schema helpers and errors
			.whereLayer("Run").mayOnlyAccessLayers(with("Runtime", "Memory", "Message"))
			// Workflow: its executor is a run executor; its stores share the memory stores' errors and schema rules
			.whereLayer("Workflow").mayOnlyAccessLayers(with("Run", "Memory"))
			.ensureAllClassesAreContainedInArchitecture()
			.check(CLASSES);
	}

	@Test
	void packagesAreFreeOfCycles() {
		// one slice per package, the root package included (which "dev.agcore.(**)" leaves out)
		slices().matching("(**)").should().beFreeOfCycles().check(CLASSES);
	}

	@Test
	void onlyProvidersUseProviders() {
		noClasses().that()
			.resideOutsideOfPackage("dev.agcore.provider..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.agcore.provider..")
			.because("every provider is reached through the ChatModel SPI")
			.check(CLASSES);
	}

	@Test
	void providerPackagesUseOnlyThemselvesAndSupport() {
		classes().that()
			.resideInAPackage("dev.agcore.provider..")
			.should(useNoOtherProviderThanSupport())
			.check(CLASSES);
	}

	@Test
	void wireFormatsStayInsideTheirProvider() {
		classes().should(useWireTypesOnlyOfTheirOwnProvider()).check(CLASSES);
	}

	@Test
	void springIsUsedOnlyAtTheEdges() {
		noClasses().that()
			.resideOutsideOfPackages("dev.agcore.provider..", "dev.agcore.middleware.annotation..",
					"dev.agcore.tool.method..", "dev.agcore.tool.typed..", "dev.agcore.tool.schema..",
					"dev.agcore.tool.binding..", "dev.agcore.memory.jdbc..", "dev.agcore.memory.redis..",
					"dev.agcore.run.jdbc..", "dev.agcore.run.redis..", "dev.agcore.workflow.jdbc..",
					"dev.agcore.workflow.redis..", "dev.agcore.run.schedule..",
					"dev.agcore.context.security..", "dev.agcore.runtime.security..", "dev.agcore.a2a.client..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("org.springframework..")
			.because("the SPIs, the loop and the stores are plain Java and Reactor")
			.check(CLASSES);
	}

	@Test
	void jackson2AndTheA2aSdkStayInsideA2a() {
		noClasses().that()
			.resideOutsideOfPackage("dev.agcore.a2a..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("com.fasterxml.jackson.databind..", "com.fasterxml.jackson.core..", "io.a2a..")
			.because("agcore's JSON is Jackson 3; the A2A SDK's types and their Jackson 2 are the A2A packages' own")
			.check(CLASSES);
	}

	@Test
	void testsVerifyStepsWithATimeout() {
		noClasses().should()
			.callMethodWhere(target(name("verifyComplete")).and(target(owner(assignableTo(StepVerifier.LastStep.class)))))
			.because("a verification without a timeout hangs the build when a publisher never completes; "
					+ "use expectComplete().verify(Duration)")
			.check(new ClassFileImporter().withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS)
				.importPackages("dev.agcore"));
	}

	@Test
	void coreUsesNoSpringBoot() {
		noClasses().should()
			.dependOnClassesThat()
			.resideInAPackage("org.springframework.boot..")
			.because("agent-core must be usable without Spring Boot")
			.check(CLASSES);
	}

	// provider.<name> may use provider.support and itself, never another provider
	private static ArchCondition<JavaClass> useNoOtherProviderThanSupport() {
		return new ArchCondition<>("use no provider package but their own and provider.support") {

			@Override
			public void check(JavaClass origin, ConditionEvents events) {
				String own = providerOf(origin.getPackageName());
				for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
					String used = providerOf(dependency.getTargetClass().getPackageName());
					if (used != null && !used.equals(own) && !used.equals("support")) {
						events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
					}
				}
			}

		};
	}

	private static @Nullable String providerOf(String packageName) {
		String prefix = "dev.agcore.provider.";
		if (!packageName.startsWith(prefix)) {
			return null;
		}
		String rest = packageName.substring(prefix.length());
		int dot = rest.indexOf('.');
		return (dot != -1) ? rest.substring(0, dot) : rest;
	}

	// a wire package holds one provider's JSON records: only that provider's package uses them
	private static ArchCondition<JavaClass> useWireTypesOnlyOfTheirOwnProvider() {
		return new ArchCondition<>("use wire types only of their own provider") {

			@Override
			public void check(JavaClass origin, ConditionEvents events) {
				for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
					String target = dependency.getTargetClass().getPackageName();
					int wire = (target + ".").indexOf(".wire.");
					if (wire != -1 && !(origin.getPackageName() + ".").startsWith(target.substring(0, wire) + ".")) {
						events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
					}
				}
			}

		};
	}

	private static String[] with(String... layers) {
		String[] all = new String[layers.length + LEAVES.length];
		System.arraycopy(layers, 0, all, 0, layers.length);
		System.arraycopy(LEAVES, 0, all, layers.length, LEAVES.length);
		return all;
	}

}
