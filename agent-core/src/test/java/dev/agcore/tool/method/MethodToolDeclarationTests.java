package dev.agcore.tool.method;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import dev.agcore.AgentName;
import dev.agcore.RawArguments;
import dev.agcore.SessionId;
import dev.agcore.State;
import dev.agcore.Tool;
import dev.agcore.ToolCallId;
import dev.agcore.ToolParam;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.SessionMemory;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolDefinitionException;
import dev.agcore.tool.ToolMetadata;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.binding.ArgumentValidator;
import dev.agcore.tool.binding.ToolBinding;
import jakarta.validation.constraints.Max;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for what a {@code @Tool} declaration means beyond its parameters: metadata,
 * secret declarations, injected values, and the startup errors for declarations that
 * cannot work.
 */
class MethodToolDeclarationTests {

	@Test
	void readsMetadataFromToolAnnotation() {
		ToolCallback tool = MethodTools.from(new Described()).get(0);
		assertThat(tool.metadata()).isEqualTo(new ToolMetadata(ToolPermission.custom("billing:refund"), "billing",
				Duration.ofMillis(1500), true, Set.of("apiKey")));
	}

	@Test
	void defaultsMetadataToWriteWithoutSecretParameters() {
		ToolCallback tool = MethodTools.from(new Plain()).get(0);
		assertThat(tool.metadata()).isEqualTo(ToolMetadata.DEFAULT);
	}

	@Test
	void toolThatDoesNotDeclareSecretsRegistersAndIsNeverSecretEligible() {
		ToolCallback tool = MethodTools.from(new Undeclared()).get(0);
		assertThat(tool.metadata().secretsDeclared()).isFalse();
		assertThat(tool.metadata().secretParameters()).isEmpty();
		assertThat(MethodTools.from(new Plain()).get(0).metadata().secretsDeclared()).isTrue();
	}

	@Test
	void failsWhenSecretsNameAnUnknownParameter() {
		assertInvalid(new UnknownSecret(), UnknownSecret.class.getName()
				+ "#call: secrets names 'token', which is not a parameter; parameters: [url]");
	}

	@Test
	void failsOnInvalidPermission() {
		assertInvalid(new BadPermission(), BadPermission.class.getName() + "#call: Invalid tool permission 'admin': "
				+ "use read-only, write, destructive or a custom 'namespace:name' in lower case");
	}

	@Test
	void failsOnInvalidTimeout() {
		assertInvalid(new BadTimeout(), BadTimeout.class.getName()
				+ "#call: timeout 'soon' is not a duration such as '10s' or 'PT10S'");
	}

	@Test
	void failsOnDefaultValueThatDoesNotFitItsType() {
		assertInvalid(new BadDefault(), BadDefault.class.getName()
				+ "#call: parameter 'days': default value 'many' is not a valid int");
	}

	@Test
	void injectsRuntimeValuesAndLeavesThemOutOfTheSchema() throws Exception {
		KeyValueStore store = new InMemoryKeyValueStore();
		ToolCallback tool = MethodTools.from(new Injected()).get(0);
		ToolContext context = new ToolContext("c9", "s1", "helper", Map.of("userId", 42, "tier", "gold"), store);

		String result = tool.call("{\"note\":\"hi\"}", context);

		assertThat(tool.spec().inputSchema().get("properties").propertyNames()).containsExactly("note");
		assertThat(result).isEqualTo("hi|c9|s1|helper|42|Optional.empty|{tier=gold, userId=42}|1");
		assertThat(SessionMemory.of(store, "s1").get("notes", Integer.class)).contains(1);
	}

	@Test
	void failsOnTwoToolContextLikeParameters() {
		assertInvalid(new TwoMemories(), TwoMemories.class.getName()
				+ "#call: at most one SessionMemory parameter is allowed, found 2");
	}

	@Test
	void failsOnScalarInjectionOfTheWrongType() {
		assertInvalid(new IntCallId(), IntCallId.class.getName() + "#call: @ToolCallId parameter 'id' must be a String");
	}

	@Test
	void failsOnStateWithoutKeyOnANonMap() {
		assertInvalid(new StateWithoutKey(), StateWithoutKey.class.getName() + "#call: @State parameter 'user' "
				+ "without a key must be a Map<String, Object>; use @State(\"key\") to inject one entry");
	}

	@Test
	void failsOnPrimitiveStateEntry() {
		assertInvalid(new PrimitiveState(), PrimitiveState.class.getName() + "#call: @State(\"count\") parameter "
				+ "'count' must not be primitive, as the entry may be missing; use Integer");
	}

	@Test
	void failsOnRawArgumentsBesideModelParameters() {
		assertInvalid(new RawAndMore(), RawAndMore.class.getName() + "#call: a @RawArguments tool receives all "
				+ "arguments in that one parameter; its other parameters can only be injected values, found 'extra'");
	}

	@Test
	void failsOnRawArgumentsOfTheWrongType() {
		assertInvalid(new RawString(), RawString.class.getName()
				+ "#call: @RawArguments parameter 'arguments' must be a JsonNode or an ObjectNode");
	}

	@Test
	void failsOnRawArgumentsSchemaThatIsNotAnObjectSchema() {
		assertInvalid(new RawBadSchema(), RawBadSchema.class.getName()
				+ "#call: @RawArguments schema must be an object schema, {\"type\": \"object\", ...}");
	}

	@Test
	void failsOnMemoryTypeThatIsNotInjected() {
		assertInvalid(new StoreParameter(), StoreParameter.class.getName() + "#call: parameter 'store': type "
				+ KeyValueStore.class.getName() + " cannot be represented in JSON; declare a SessionMemory or "
				+ "LongTermStore parameter to have memory injected");
	}

	@Test
	void failsOnConstraintsOfStaticMethodsWhenValidating() {
		assertInvalid(new StaticConstrained(), StaticConstrained.class.getName() + "#call: Bean Validation does not "
				+ "apply to static methods; make the method an instance method or remove its constraints");
		ToolBinding withoutValidation = ToolBinding.defaults().withValidator(ArgumentValidator.NONE);
		assertThat(MethodTools.from(new StaticConstrained(), StaticConstrained.class, null, withoutValidation))
			.hasSize(1);
	}

	private static void assertInvalid(Object bean, String problem) {
		assertThatExceptionOfType(ToolDefinitionException.class).isThrownBy(() -> MethodTools.from(bean))
			.withMessage("Invalid @Tool method " + problem);
	}

	static class Described {

		@Tool(name = "refund", description = "Refund an order", category = "billing", timeout = "1500ms",
				returnDirect = true, permission = "billing:refund", secrets = "apiKey")
		String call(String order, String apiKey) {
			return "";
		}

	}

	static class Plain {

		@Tool(secrets = {})
		String call() {
			return "";
		}

	}

	static class Undeclared {

		@Tool
		String lookup(String query) {
			return "";
		}

	}

	static class UnknownSecret {

		@Tool(secrets = "token")
		String call(String url) {
			return "";
		}

	}

	static class BadPermission {

		@Tool(permission = "admin", secrets = {})
		String call() {
			return "";
		}

	}

	static class BadTimeout {

		@Tool(timeout = "soon", secrets = {})
		String call() {
			return "";
		}

	}

	static class BadDefault {

		@Tool(secrets = {})
		String call(@ToolParam(defaultValue = "many") int days) {
			return "";
		}

	}

	static class Injected {

		@Tool(secrets = {})
		String call(String note, @ToolCallId String callId, @SessionId String sessionId, @AgentName String agent,
				@State("userId") Long userId, @State("missing") Optional<String> missing,
				@State Map<String, Object> state, SessionMemory memory) {
			int notes = memory.get("notes", Integer.class).orElse(0) + 1;
			memory.put("notes", notes);
			return String.join("|", note, callId, sessionId, agent, String.valueOf(userId), String.valueOf(missing),
					String.valueOf(new TreeMap<>(state)), String.valueOf(notes));
		}

	}

	static class TwoMemories {

		@Tool(secrets = {})
		String call(SessionMemory first, SessionMemory second) {
			return "";
		}

	}

	static class IntCallId {

		@Tool(secrets = {})
		String call(@ToolCallId int id) {
			return "";
		}

	}

	static class StateWithoutKey {

		@Tool(secrets = {})
		String call(@State String user) {
			return "";
		}

	}

	static class PrimitiveState {

		@Tool(secrets = {})
		String call(@State("count") int count) {
			return "";
		}

	}

	static class RawAndMore {

		@Tool(secrets = {})
		String call(@RawArguments JsonNode arguments, String extra) {
			return "";
		}

	}

	static class RawString {

		@Tool(secrets = {})
		String call(@RawArguments String arguments) {
			return "";
		}

	}

	static class RawBadSchema {

		@Tool(secrets = {})
		String call(@RawArguments(schema = "{\"type\": \"string\"}") JsonNode arguments) {
			return "";
		}

	}

	static class StoreParameter {

		@Tool(secrets = {})
		String call(KeyValueStore store) {
			return "";
		}

	}

	static class StaticConstrained {

		@Tool(secrets = {})
		static String call(@Max(3) int count) {
			return "";
		}

	}

}
