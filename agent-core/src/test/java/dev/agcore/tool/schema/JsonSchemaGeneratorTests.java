package dev.agcore.tool.schema;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.agcore.Tool;
import dev.agcore.ToolParam;
import dev.agcore.json.AgentJson;
import dev.agcore.tool.ToolDefinitionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link JsonSchemaGenerator}.
 */
class JsonSchemaGeneratorTests {

	private final JsonSchemaGenerator generator = new JsonSchemaGenerator();

	@ParameterizedTest
	@ValueSource(strings = { "primitives", "optionals", "enums", "nested", "freeForm", "context", "recursive",
			"collections", "none" })
	void schemaForMethodMatchesGoldenFile(String methodName) throws IOException {
		ObjectNode schema = this.generator.schemaForMethod(fixture(methodName));
		assertThat(schema).isEqualTo(golden(methodName));
	}

	@ParameterizedTest
	@MethodSource("toolMethods")
	void schemaForMethodHasNoConstructsModelApisReject(Method method) {
		assertThat(SchemaAssertions.problems(this.generator.schemaForMethod(method))).isEmpty();
	}

	@Test
	void schemaForTypeHasNoConstructsModelApisReject() {
		List<Type> types = List.of(Pair.class, Book.class, Described.class, SchemaFixtures.Trip.class,
				SchemaFixtures.Category.class, Tree.class, Empty.class, new TypeReference<List<Pair>>() {
				}.getType(), new TypeReference<Map<String, SchemaFixtures.Stop>>() {
				}.getType());
		for (Type type : types) {
			assertThat(SchemaAssertions.problems(this.generator.schemaFor(type))).as(type.getTypeName()).isEmpty();
		}
	}

	@Test
	void schemaForTypeInlinesTypesUsedTwice() {
		ObjectNode schema = this.generator.schemaFor(Pair.class);
		assertThat(schema.at("/properties/first")).isEqualTo(schema.at("/properties/second"));
		assertThat(schema.at("/properties/first/properties/city/type").asString()).isEqualTo("string");
	}

	@Test
	void schemaForTypeCutsRecursionWithFreeFormObject() {
		ObjectNode schema = this.generator.schemaFor(Tree.class);
		JsonNode root = schema.at("/properties/root");
		assertThat(root.at("/properties/name/type").asString()).isEqualTo("string");
		assertThat(root.at("/properties/children/items"))
			.isEqualTo(JsonMapper.shared().readTree("{\"type\":\"object\",\"additionalProperties\":true}"));
	}

	@Test
	void schemaForTypeKeepsPropertyNamedTitle() {
		ObjectNode schema = this.generator.schemaFor(Book.class);
		assertThat(schema.at("/properties/title/type").asString()).isEqualTo("string");
		assertThat(schema.get("required")).hasSize(1);
	}

	@Test
	void schemaForTypeUsesJacksonDescriptions() {
		ObjectNode schema = this.generator.schemaFor(Described.class);
		assertThat(schema.get("description").asString()).isEqualTo("A described thing");
		assertThat(schema.at("/properties/size/description").asString()).isEqualTo("How big");
	}

	@Test
	void schemaForOptionalIsSchemaOfValue() {
		Type optional = new TypeReference<Optional<Book>>() {
		}.getType();
		assertThat(this.generator.schemaFor(optional)).isEqualTo(this.generator.schemaFor(Book.class));
	}

	@Test
	void schemaForEmptyRecordHasEmptyProperties() {
		assertThat(this.generator.schemaFor(Empty.class).get("properties")).isEmpty();
	}

	@Test
	void schemaFollowsMapperNamingStrategy() {
		JsonMapper snakeCase = JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
		ObjectNode schema = new JsonSchemaGenerator(snakeCase).schemaFor(Described.class);
		assertThat(schema.get("properties").propertyNames()).containsExactly("size", "full_name", "alias");
		assertThat(schema.get("required")).extracting(JsonNode::asString).containsExactly("size", "full_name", "alias");
	}

	@ParameterizedTest
	@ValueSource(classes = { InputStream.class, Thread.class, Supplier.class, Runnable.class, Class.class,
			WithStream.class, Shape.class })
	void schemaForUnsupportedTypeFails(Class<?> type) {
		assertThatExceptionOfType(ToolDefinitionException.class).isThrownBy(() -> this.generator.schemaFor(type))
			.withMessageContaining(type.getSimpleName().equals("WithStream") ? "java.io.InputStream"
					: type.getName());
	}

	@Test
	void schemaForMethodWithUnsupportedParameterNamesMethodAndParameter() throws NoSuchMethodException {
		Method method = Invalid.class.getDeclaredMethod("upload", String.class, InputStream.class);
		assertThatExceptionOfType(ToolDefinitionException.class)
			.isThrownBy(() -> this.generator.schemaForMethod(method))
			.withMessage(Invalid.class.getName() + "#upload: parameter 'content': type java.io.InputStream "
					+ "cannot be represented in JSON");
	}

	@Test
	void schemaForMethodWithUnresolvedTypeVariableFails() throws NoSuchMethodException {
		Method method = Invalid.class.getDeclaredMethod("generic", Object.class);
		assertThatExceptionOfType(ToolDefinitionException.class)
			.isThrownBy(() -> this.generator.schemaForMethod(method))
			.withMessageContaining("type variable 'T'");
	}

	@Test
	void generatorIsReusableAcrossCalls() {
		ObjectNode first = this.generator.schemaFor(SchemaFixtures.Trip.class);
		first.removeAll();
		assertThat(this.generator.schemaFor(SchemaFixtures.Trip.class).get("properties")).isNotEmpty();
	}

	static Stream<Method> toolMethods() {
		return Arrays.stream(SchemaFixtures.class.getDeclaredMethods()).filter((m) -> m.isAnnotationPresent(Tool.class));
	}

	private static Method fixture(String name) {
		return toolMethods().filter((method) -> method.getName().equals(name)).findFirst().orElseThrow();
	}

	private static JsonNode golden(String methodName) throws IOException {
		String file = methodName.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase() + ".json";
		try (InputStream in = JsonSchemaGeneratorTests.class.getResourceAsStream(file)) {
			assertThat(in).as(file).isNotNull();
			return AgentJson.mapper().readTree(in);
		}
	}

	record Pair(SchemaFixtures.Stop first, SchemaFixtures.Stop second) {
	}

	record Tree(SchemaFixtures.Category root, SchemaFixtures.Category other) {
	}

	record Book(String title, @ToolParam(required = false) String subtitle) {
	}

	@JsonClassDescription("A described thing")
	record Described(@JsonPropertyDescription("How big") int size, String fullName,
			@JsonProperty("alias") String nickName) {
	}

	record Empty() {
	}

	record WithStream(String name, InputStream content) {
	}

	interface Shape {

	}

	@SuppressWarnings("unused")
	static class Invalid {

		@Tool
		void upload(String name, InputStream content) {
		}

		@Tool
		<T> void generic(T value) {
		}

	}

}
