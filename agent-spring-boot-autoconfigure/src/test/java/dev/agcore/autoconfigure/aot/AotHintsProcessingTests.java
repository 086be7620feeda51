package dev.agcore.autoconfigure.aot;

import java.util.List;
import java.util.Map;

import dev.agcore.Tool;
import dev.agcore.autoconfigure.observation.TraceableAutoConfiguration;
import dev.agcore.autoconfigure.workflow.WorkflowAutoConfiguration;
import dev.agcore.middleware.annotation.BeforeModel;
import dev.agcore.observation.Traceable;
import dev.agcore.workflow.annotation.Entrypoint;
import dev.agcore.workflow.annotation.Task;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring AOT processing of a context with the starter's auto-configurations and
 * application beans: the hints of {@code META-INF/spring/aot.factories} are applied, the
 * annotated bean methods and their types are registered, and the {@code @Task} and
 * {@code @Traceable} class proxies are generated at build time.
 */
class AotHintsProcessingTests {

	// processed once: CGLIB numbers a proxy class anew when one of its name is already loaded
	private static RuntimeHints hints;

	@BeforeAll
	static void processAheadOfTime() {
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
			context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("test",
						Map.of("agent.knowledge.path", "classpath:/kb/", "agent.prompts.location", "file:./prompts")));
			context.register(ApplicationBeans.class, TraceableAutoConfiguration.class, WorkflowAutoConfiguration.class);
			DefaultGenerationContext generation = new DefaultGenerationContext(
					new ClassNameGenerator(ClassName.get(AotHintsProcessingTests.class)), new InMemoryGeneratedFiles());
			new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
			hints = generation.getRuntimeHints();
		}
	}

	@Test
	void toolMethodsAreInvocableAndTheirTypesBound() throws Exception {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(OrderTools.class, "place")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(OrderTools.class, "helper"))
			.rejects(hints);
		// a parameter's type, a type argument of a parameter, and the type a Mono returns
		for (Class<?> type : List.of(OrderRequest.class, Line.class, Receipt.class)) {
			assertThat(RuntimeHintsPredicates.reflection().onType(type)).as(type.getSimpleName()).accepts(hints);
			assertThat(RuntimeHintsPredicates.reflection()
				.onMethodInvocation(type.getRecordComponents()[0].getAccessor())).accepts(hints);
			// the JSON schema generator reads the fields (and their annotations)
			assertThat(RuntimeHintsPredicates.reflection()
				.onFieldAccess(type, type.getRecordComponents()[0].getName())).accepts(hints);
		}
	}

	@Test
	void workflowAndMiddlewareMethodsAreInvocable() {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ReturnTasks.class, "refund"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ReturnTasks.class, "returns"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Hooks.class, "beforeModel"))
			.accepts(hints);
	}

	@Test
	void taskAndTraceableClassProxiesAreGeneratedAtBuildTime() {
		assertThat(proxyClasses(ReturnTasks.class)).hasSize(1);
		assertThat(proxyClasses(TracedService.class)).hasSize(1);
		assertThat(proxyClasses(Hooks.class)).isEmpty();
	}

	private static List<String> proxyClasses(Class<?> type) {
		return hints.reflection()
			.typeHints()
			.map((hint) -> hint.getType().getName())
			.filter((name) -> name.startsWith(type.getName() + "$$SpringCGLIB$$"))
			.distinct()
			.toList();
	}

	@Test
	void starterHintsAndConfiguredClasspathFoldersAreIncluded() {
		assertThat(RuntimeHintsPredicates.resource().forResource("dev/agcore/run/jdbc/schema-h2.sql"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.resource().forResource("kb/shipping/rates.md")).accepts(hints);
		// a file: location is read from the file system, not from the image
		assertThat(RuntimeHintsPredicates.resource().forResource("./prompts/a.hbs")).rejects(hints);
	}

	@Configuration(proxyBeanMethods = false)
	static class ApplicationBeans {

		@Bean
		ObservationRegistry observationRegistry() {
			return ObservationRegistry.create();
		}

		@Bean
		OrderTools orderTools() {
			return new OrderTools();
		}

		@Bean
		ReturnTasks returnTasks() {
			return new ReturnTasks();
		}

		@Bean
		TracedService tracedService() {
			return new TracedService();
		}

		@Bean
		Hooks hooks() {
			return new Hooks();
		}

	}

	record Line(String sku, int quantity) {
	}

	record OrderRequest(String customer, List<Line> lines) {
	}

	record Receipt(String orderId) {
	}

	static class OrderTools {

		@Tool(description = "Places an order")
		Mono<Receipt> place(OrderRequest request) {
			return Mono.just(new Receipt("1"));
		}

		String helper() {
			return "not a tool";
		}

	}

	static class ReturnTasks {

		@Task
		String refund(String orderId) {
			return orderId;
		}

		@Entrypoint
		String returns(String orderId) {
			return refund(orderId);
		}

	}

	@Traceable
	static class TracedService {

		public String lookup(String id) {
			return id;
		}

	}

	static class Hooks {

		@BeforeModel
		void beforeModel() {
		}

	}

}
