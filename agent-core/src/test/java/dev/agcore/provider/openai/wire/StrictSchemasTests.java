package dev.agcore.provider.openai.wire;

import dev.agcore.json.AgentJson;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StrictSchemasTests {

	@Test
	void closedObjectsWithEveryPropertyRequiredAreStrict() {
		assertThat(StrictSchemas.isStrict(AgentJson.mapper().readTree("""
				{"type":"object","additionalProperties":false,"required":["city","days"],
				 "properties":{"city":{"type":"string"},"days":{"type":"array","items":{"type":"object",
				  "additionalProperties":false,"required":["t"],"properties":{"t":{"type":"number"}}}}}}
				"""))).isTrue();
	}

	@Test
	void anOptionalOrOpenObjectAnywhereIsNotStrict() {
		assertThat(StrictSchemas.isStrict(AgentJson.mapper().readTree("""
				{"type":"object","additionalProperties":false,"required":["city"],
				 "properties":{"city":{"type":"string"},"note":{"type":"string"}}}
				"""))).isFalse();
		assertThat(StrictSchemas.isStrict(AgentJson.mapper().readTree("""
				{"type":"object","required":["city"],"properties":{"city":{"type":"string"}}}
				"""))).isFalse();
		assertThat(StrictSchemas.isStrict(AgentJson.mapper().readTree("""
				{"type":"object","additionalProperties":false,"required":["days"],
				 "properties":{"days":{"type":"array","items":{"type":"object","properties":{"t":{"type":"number"}}}}}}
				"""))).isFalse();
	}

	@Test
	void tighteningClosesObjectsAndMakesOptionalPropertiesNullable() {
		tools.jackson.databind.node.ObjectNode schema = (tools.jackson.databind.node.ObjectNode) AgentJson.mapper()
			.readTree("""
					{"type":"object","properties":{"city":{"type":"string"},"remark":{"type":"string"},
					 "days":{"type":"array","items":{"type":"object","properties":{"t":{"type":"number"}}}}},
					 "required":["city","days"]}
					""");
		tools.jackson.databind.node.ObjectNode tightened = StrictSchemas.tighten(schema);
		assertThat(tightened).isEqualTo(AgentJson.mapper().readTree("""
				{"type":"object","properties":{"city":{"type":"string"},"remark":{"type":["string","null"]},
				 "days":{"type":"array","items":{"type":"object","properties":{"t":{"type":["number","null"]}},
				  "additionalProperties":false,"required":["t"]}}},
				 "required":["city","days","remark"],"additionalProperties":false}
				"""));
		assertThat(StrictSchemas.isStrict(tightened)).isTrue();
		assertThat(schema.has("additionalProperties")).as("the original is not changed").isFalse();
	}

	@Test
	void anObjectOpenOnPurposeStaysNotStrict() {
		tools.jackson.databind.node.ObjectNode schema = (tools.jackson.databind.node.ObjectNode) AgentJson.mapper()
			.readTree("""
					{"type":"object","properties":{"tags":{"type":"object","additionalProperties":{"type":"string"}}},
					 "required":["tags"]}
					""");
		assertThat(StrictSchemas.isStrict(StrictSchemas.tighten(schema))).isFalse();
	}

}
