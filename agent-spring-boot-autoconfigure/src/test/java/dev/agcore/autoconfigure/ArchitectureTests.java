package dev.agcore.autoconfigure;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import org.springframework.boot.autoconfigure.AutoConfiguration;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameStartingWith;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The package rules of the auto-configuration module, as docs/architecture.md describes
 * them: it builds core objects from properties and beans, reaches providers only where
 * models are created, and its packages form no cycle.
 */
class ArchitectureTests {

	private static final JavaClasses CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.agcore.autoconfigure");

	private static final JavaClasses TEST_CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS)
		.importPackages("dev.agcore.autoconfigure");

	@Test
	void packagesAreFreeOfCycles() {
		// Known exception: AgentProperties, in the root package, nests the per-agent
		// MiddlewareProperties, ToolPermissionProperties and AgentMemoryProperties, which
		// their packages own.
		// Every other dependency counts, so any new cycle fails.
		slices().matching("(**)")
			.should()
			.beFreeOfCycles()
			.ignoreDependency(nameStartingWith(AgentProperties.class.getName()),
					resideInAPackage("dev.agcore.autoconfigure.middleware")
						.or(resideInAPackage("dev.agcore.autoconfigure.tool"))
						.or(resideInAPackage("dev.agcore.autoconfigure.memory")))
			.check(CLASSES);
	}

	@Test
	void rootPackageUsesNoOtherPackageButThePropertiesItNests() {
		noClasses().that()
			.resideInAPackage("dev.agcore.autoconfigure")
			.and(DescribedPredicate.not(nameStartingWith(AgentProperties.class.getName())))
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.agcore.autoconfigure.*..")
			.because("the root package holds what every other package uses")
			.check(CLASSES);
	}

	@Test
	void nothingDependsOnTheWebEndpointOrTheActuatorEndpoint() {
		for (String edge : new String[] { "web", "actuate" }) {
			String edgePackage = "dev.agcore.autoconfigure." + edge + "..";
			noClasses().that()
				.resideOutsideOfPackage(edgePackage)
				.should()
				.dependOnClassesThat()
				.resideInAPackage(edgePackage)
				.check(CLASSES);
		}
	}

	@Test
	void jackson2AndTheA2aSdkStayInsideTheA2aPackages() {
		noClasses().that()
			.resideOutsideOfPackages("dev.agcore.autoconfigure.web.a2a..", "dev.agcore.autoconfigure.a2a..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("com.fasterxml.jackson.databind..", "com.fasterxml.jackson.core..", "io.a2a..")
			.because("the configuration's JSON is Jackson 3; the A2A SDK and its Jackson 2 belong to the A2A packages")
			.check(CLASSES);
	}

	@Test
	void nothingDependsOnTheTestSlice() {
		noClasses().that()
			.resideOutsideOfPackage("dev.agcore.autoconfigure.test..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.agcore.autoconfigure.test..")
			.because("@AgentTest and its scripted models are for the application's tests only")
			.check(CLASSES);
	}

	@Test
	void onlyTheTestSliceUsesTheTestingKit() {
		noClasses().that()
			.resideOutsideOfPackage("dev.agcore.autoconfigure.test..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.agcore.testing..")
			.because("the runtime never answers from a script")
			.check(CLASSES);
	}

	@Test
	void onlyModelConfigurationUsesProviders() {
		noClasses().that()
			.resideOutsideOfPackages("dev.agcore.autoconfigure.model..", "dev.agcore.autoconfigure.embedding..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.agcore.provider..")
			.because("providers become ChatModels and EmbeddingModels in one place each; everything else sees the SPIs")
			.check(CLASSES);
	}

	@Test
	void noProviderWireFormatIsUsed() {
		classes().should(useNoWireType()).check(CLASSES);
	}

	@Test
	void autoConfigurationsArePublicAndFinal() {
		classes().that()
			.areAnnotatedWith(AutoConfiguration.class)
			.should()
			.bePublic()
			.andShould()
			.haveModifier(JavaModifier.FINAL)
			.check(CLASSES);
	}

	@Test
	void testsVerifyStepsWithATimeout() {
		noClasses().should()
			.callMethodWhere(target(name("verifyComplete")).and(target(owner(assignableTo(StepVerifier.LastStep.class)))))
			.because("a verification without a timeout hangs the build when a publisher never completes; "
					+ "use expectComplete().verify(Duration)")
			.check(TEST_CLASSES);
	}

	// wire packages are internal to their provider in agent-core
	private static ArchCondition<JavaClass> useNoWireType() {
		return new ArchCondition<>("use no provider's wire types") {

			@Override
			public void check(JavaClass origin, ConditionEvents events) {
				for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
					if ((dependency.getTargetClass().getPackageName() + ".").contains(".wire.")) {
						events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
					}
				}
			}

		};
	}

}
