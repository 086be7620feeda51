package dev.agcore.tool.typed;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolDefinitionException;
import dev.agcore.tool.ToolMetadata;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.binding.ArgumentValidator;
import dev.agcore.tool.binding.ToolBinding;
import dev.agcore.tool.schema.ToolFixtures;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link TypedTools}: the bridge from typed tools to tool callbacks.
 */
class TypedToolsTests {

	private static final ToolContext CONTEXT = new ToolContext("call-1", "session-1", "agent", Map.of());

	@Test
	void bridgesNameDescriptionSchemaAndMetadata() {
		ToolCallback tool = TypedTools.from(new Deleting());
		assertThat(tool.spec().name()).isEqualTo("delete_note");
		assertThat(tool.spec().description()).isEqualTo("Delete a note");
		assertThat(tool.spec().inputSchema().at("/properties/id/type").asString()).isEqualTo("string");
		assertThat(tool.metadata()).isEqualTo(new ToolMetadata(ToolPermission.DESTRUCTIVE, "notes",
				Duration.ofSeconds(2), true, Set.of("id")));
		assertThat(tool.source()).isEqualTo(Deleting.class.getName());
	}

	@Test
	void generatesTheSchemaOnceWhenCreated() {
		ToolCallback tool = TypedTools.from(new ToolFixtures.ForecastTool());
		assertThat(tool.spec().inputSchema()).isSameAs(tool.spec().inputSchema());
		assertThat(TypedTools.from(new ToolFixtures.ForecastTool()).spec()).isEqualTo(tool.spec());
	}

	@Test
	void resolvesTheInputTypeOfASubclass() throws Exception {
		ToolCallback tool = TypedTools.from(new ToolFixtures.ForecastTool() {
		});
		assertThat(tool.call("{\"city\":\"Rome\"}", CONTEXT)).contains("\"city\":\"Rome\"");
	}

	@Test
	@SuppressWarnings("unchecked")
	void callsAJdkProxyOfATypedTool() throws Exception {
		ToolFixtures.ForecastTool target = new ToolFixtures.ForecastTool();
		TypedTool<ToolFixtures.ForecastInput> proxy = (TypedTool<ToolFixtures.ForecastInput>) Proxy.newProxyInstance(
				getClass().getClassLoader(), new Class<?>[] { TypedTool.class },
				(instance, method, args) -> method.invoke(target, args));
		ToolCallback tool = TypedTools.from(proxy);
		assertThat(tool.spec()).isEqualTo(TypedTools.from(target).spec());
		assertThat(tool.call("{\"city\":\"Rome\"}", CONTEXT)).contains("\"days\":3");
	}

	@Test
	void skipsValidationWhenTheBindingHasNone() throws Exception {
		ToolCallback tool = TypedTools.from(new ToolFixtures.ForecastTool(),
				ToolBinding.defaults().withValidator(ArgumentValidator.NONE), "bean 'forecast'");
		assertThat(tool.call("{\"city\":\"Rome\",\"days\":99}", CONTEXT)).contains("\"days\":99");
		assertThat(tool.source()).isEqualTo("bean 'forecast' (" + ToolFixtures.ForecastTool.class.getName() + ")");
	}

	@Test
	void failsWhenTheInputTypeCannotBeResolved() {
		assertThatExceptionOfType(ToolDefinitionException.class).isThrownBy(() -> TypedTools.from(new Generic<>()))
			.withMessage("Invalid typed tool " + Generic.class.getName() + ": Cannot resolve the input type of "
					+ Generic.class.getName() + "; implement TypedTool<YourInput> directly or override inputType()");
	}

	@Test
	void failsWhenTheInputTypeIsNotAnObject() {
		assertThatExceptionOfType(ToolDefinitionException.class).isThrownBy(() -> TypedTools.from(new Scalar()))
			.withMessage("Invalid typed tool " + Scalar.class.getName() + ": input type java.lang.String must be a "
					+ "record or class with properties (or JsonNode for raw arguments)");
	}

	@Test
	void failsWhenSecretParametersNameAnUnknownProperty() {
		assertThatExceptionOfType(ToolDefinitionException.class).isThrownBy(() -> TypedTools.from(new BadSecret()))
			.withMessage("Invalid typed tool " + BadSecret.class.getName()
					+ ": secrets names 'token', which is not a parameter; parameters: [id]");
	}

	@Test
	void failsOnInvalidName() {
		assertThatExceptionOfType(ToolDefinitionException.class).isThrownBy(() -> TypedTools.from(new BadName()))
			.withMessage("Invalid typed tool " + BadName.class.getName()
					+ ": tool name 'delete note' must be 1 to 64 letters, digits, '_' or '-'");
	}

	record NoteId(String id) {
	}

	static class Deleting implements TypedTool<NoteId> {

		@Override
		public String name() {
			return "delete_note";
		}

		@Override
		public String description() {
			return "Delete a note";
		}

		@Override
		public Set<String> secretParameters() {
			return Set.of("id");
		}

		@Override
		public Object call(NoteId input, ToolContext context) {
			return "deleted " + input.id();
		}

		@Override
		public ToolPermission permission() {
			return ToolPermission.DESTRUCTIVE;
		}

		@Override
		public String category() {
			return "notes";
		}

		@Override
		public Duration timeout() {
			return Duration.ofSeconds(2);
		}

		@Override
		public boolean returnDirect() {
			return true;
		}

	}

	static class BadSecret extends Deleting {

		@Override
		public Set<String> secretParameters() {
			return Set.of("token");
		}

	}

	static class BadName extends Deleting {

		@Override
		public String name() {
			return "delete note";
		}

	}

	static class Generic<T> implements TypedTool<T> {

		@Override
		public String name() {
			return "generic";
		}

		@Override
		public String description() {
			return "";
		}

		@Override
		public Set<String> secretParameters() {
			return Set.of();
		}

		@Override
		public @Nullable Object call(T input, ToolContext context) {
			return null;
		}

	}

	static class Scalar implements TypedTool<String> {

		@Override
		public String name() {
			return "scalar";
		}

		@Override
		public String description() {
			return "";
		}

		@Override
		public Set<String> secretParameters() {
			return Set.of();
		}

		@Override
		public Object call(String input, ToolContext context) {
			return input;
		}

	}

}
