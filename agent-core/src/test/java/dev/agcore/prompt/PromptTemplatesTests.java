package dev.agcore.prompt;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link PromptTemplates}: the seed's template semantics (agcore-spec §2.1), and
 * each of the seed's as-built bugs (§10 item 9) avoided.
 */
class PromptTemplatesTests {

	private final PromptTemplates templates = new PromptTemplates();

	@Test
	void interpolatesTrimmedTagsWithoutEscaping() {
		String text = PromptTemplate.compile("Hello {{ name }} and {{name}}: {{html}}")
			.render(Map.of("name", "Ada", "html", "<b>&\"'</b>"));

		assertThat(text).isEqualTo("Hello Ada and Ada: <b>&\"'</b>");
	}

	@Test
	void keepsNonAsciiTextAndValuesIntact() {
		String text = PromptTemplate.compile("你好，{{name}}！退货政策：{{#if vip}}三十天 🎉{{else}}七天{{/if}}")
			.render(Map.of("name", "世界", "vip", true));

		assertThat(text).isEqualTo("你好，世界！退货政策：三十天 🎉");
	}

	@Test
	void ifIsFalseForMissingEmptyAndFalseValues() {
		PromptTemplate template = PromptTemplate.compile("{{#if x}}yes{{else}}no{{/if}}");

		assertThat(template.render(Map.of())).isEqualTo("no");
		assertThat(template.render(Map.of("x", ""))).isEqualTo("no");
		assertThat(template.render(Map.of("x", false))).isEqualTo("no");
		assertThat(template.render(Map.of("x", List.of()))).isEqualTo("no");
		assertThat(template.render(Map.of("x", "a"))).isEqualTo("yes");
		assertThat(template.render(Map.of("x", List.of("a")))).isEqualTo("yes");
		assertThat(template.render(Map.of("x", Map.of("k", "v")))).isEqualTo("yes");
	}

	@Test
	void elseOfANestedIfBelongsToThatIf() {
		PromptTemplate template = PromptTemplate
			.compile("{{#if a}}A{{#if b}}B{{else}}not B{{/if}}{{else}}not A{{/if}}");

		assertThat(template.render(Map.of("a", true, "b", false))).isEqualTo("Anot B");
		assertThat(template.render(Map.of("a", false, "b", true))).isEqualTo("not A");
		assertThat(template.render(Map.of("a", true, "b", true))).isEqualTo("AB");
	}

	@Test
	void eachBindsItemShadowingAnOuterItemAndRendersNothingForAnEmptyList() {
		PromptTemplate template = PromptTemplate
			.compile("{{item}}:{{#each list}}[{{item}}@{{@index}}]{{/each}}{{#each none}}x{{/each}}:{{item}}");

		String text = template.render(Map.of("item", "outer", "list", List.of("a", "b"), "none", List.of()));

		assertThat(text).isEqualTo("outer:[a@0][b@1]:outer");
	}

	@Test
	void eachHasAnElsePartForAnEmptyListAndUnlessIsTheOppositeOfIf() {
		PromptTemplate template = PromptTemplate
			.compile("{{#each list}}{{item}}{{else}}none{{/each}}|{{#unless zero}}zero is false{{/unless}}");

		assertThat(template.render(Map.of("list", List.of(), "zero", 0))).isEqualTo("none|zero is false");
		assertThat(template.render(Map.of("list", List.of("x"), "zero", 1))).isEqualTo("x|");
	}

	@Test
	void eachReachesFieldsOfRecordsAndMaps() {
		record Product(String name, int price) {
		}
		PromptTemplate template = PromptTemplate.compile(
				"{{#each products}}{{name}}={{item.price}};{{/each}}{{#each rows}}{{this.id}},{{/each}}{{customer.name}}");

		String text = template.render(Map.of("products", List.of(new Product("tea", 3), new Product("cake", 5)), "rows",
				new Object[] { Map.of("id", 1), Map.of("id", 2) }, "customer", Map.of("name", "Ada")));

		assertThat(text).isEqualTo("tea=3;cake=5;1,2,Ada");
	}

	@Test
	void missingOrNullVariableFailsNamingItAndTheTemplate() {
		this.templates.register("support/system", "Hello {{customer}}");
		Map<String, Object> nullValue = new java.util.HashMap<>();
		nullValue.put("customer", null);

		assertThatExceptionOfType(PromptException.class).isThrownBy(() -> this.templates.render("support/system", Map.of()))
			.satisfies((ex) -> {
				assertThat(ex.kind()).isEqualTo(PromptException.Kind.VARIABLE_NOT_FOUND);
				assertThat(ex.template()).isEqualTo("support/system");
				assertThat(ex.getMessage()).isEqualTo("Template 'support/system' line 1, column 8: "
						+ "variable 'customer' not found");
			});
		assertThatExceptionOfType(PromptException.class)
			.isThrownBy(() -> this.templates.render("support/system", nullValue))
			.withMessageEndingWith("variable 'customer' not found");
	}

	@Test
	void eachOverAMissingValueOrANonListFails() {
		PromptTemplate template = PromptTemplate.compile("{{#each orders}}{{item}}{{/each}}");

		assertThatExceptionOfType(PromptException.class).isThrownBy(() -> template.render(Map.of()))
			.satisfies((ex) -> assertThat(ex.kind()).isEqualTo(PromptException.Kind.VARIABLE_NOT_FOUND))
			.withMessageEndingWith("variable 'orders' not found");
		assertThatExceptionOfType(PromptException.class)
			.isThrownBy(() -> template.render(Map.of("orders", "A-1")))
			.satisfies((ex) -> assertThat(ex.kind()).isEqualTo(PromptException.Kind.NOT_AN_ARRAY))
			.withMessageEndingWith("{{#each orders}} needs a list or array, but 'orders' is a String");
	}

	@Test
	void rawBlocksPrintTheirTextEvenWhenItIsNoTemplate() {
		String text = PromptTemplate.compile("Use {{#raw}}{{name}} and {{#if x}} as is{{/raw}}, {{name}}.")
			.render(Map.of("name", "Ada"));

		assertThat(text).isEqualTo("Use {{name}} and {{#if x}} as is, Ada.");
	}

	@Test
	void partialsRenderAndRegistryTemplatesServeAsPartials() {
		this.templates.register("shared/tone", "Be {{tone}}.");
		this.templates.register("support/system", "You help {{customer}}. {{> shared/tone}}{{#if vip}} {{> shared/vip}}{{/if}}");
		this.templates.registerLazy("shared/vip", "VIP: {{#each perks}}{{item}} {{/each}}");

		String text = this.templates.render("support/system",
				Map.of("customer", "Ada", "tone", "kind", "vip", true, "perks", List.of("free returns")));

		assertThat(text).isEqualTo("You help Ada. Be kind. VIP: free returns ");
	}

	@Test
	void replacingAPartialIsSeenByTemplatesIncludingIt() {
		this.templates.register("tone", "calm");
		this.templates.register("system", "Be {{> tone}}.");
		assertThat(this.templates.render("system", Map.of())).isEqualTo("Be calm.");

		this.templates.register("tone", "brief");

		assertThat(this.templates.render("system", Map.of())).isEqualTo("Be brief.");
	}

	@Test
	void missingPartialFailsNamingItAndTheIncludingTemplate() {
		this.templates.register("system", "Hi {{> footer}}");

		assertThatExceptionOfType(PromptException.class).isThrownBy(() -> this.templates.render("system", Map.of()))
			.satisfies((ex) -> assertThat(ex.kind()).isEqualTo(PromptException.Kind.PARTIAL_NOT_FOUND))
			.withMessage("Template 'system' includes the partial 'footer', which is not a registered template");
		assertThatExceptionOfType(PromptException.class).isThrownBy(this.templates::validate)
			.withMessageContaining("'footer'");
	}

	@Test
	void partialsThatIncludeEachOtherFailBeforeRendering() {
		this.templates.register("a", "A {{> b}}");
		this.templates.register("b", "B {{#if x}}{{> a}}{{/if}}");
		this.templates.register("self", "S {{> self}}");

		assertThatExceptionOfType(PromptException.class)
			.isThrownBy(() -> this.templates.render("a", Map.of("x", true)))
			.satisfies((ex) -> assertThat(ex.kind()).isEqualTo(PromptException.Kind.MAX_DEPTH))
			.withMessage("Template 'a': partials include each other (a > b > a), which would nest past the depth "
					+ "limit of 16");
		assertThatExceptionOfType(PromptException.class).isThrownBy(() -> this.templates.render("self", Map.of()))
			.withMessageContaining("(self > self)");
	}

	@Test
	void blocksAndPartialsNestAtMostSixteenDeep() {
		String sixteen = "{{#if x}}".repeat(16) + "deep" + "{{/if}}".repeat(16);
		this.templates.register("sixteen", sixteen);
		this.templates.register("seventeen", "{{#if x}}".repeat(17) + "deeper" + "{{/if}}".repeat(17));
		this.templates.register("includes", "{{#if x}}{{> sixteen}}{{/if}}");

		assertThat(this.templates.render("sixteen", Map.of("x", true))).isEqualTo("deep");
		assertThatExceptionOfType(PromptException.class)
			.isThrownBy(() -> this.templates.render("seventeen", Map.of("x", true)))
			.withMessage("Template 'seventeen' nests blocks and partials 17 deep; the limit is 16");
		assertThatExceptionOfType(PromptException.class)
			.isThrownBy(() -> this.templates.render("includes", Map.of("x", true)))
			.withMessage("Template 'includes' nests blocks and partials 18 deep; the limit is 16");
	}

	@Test
	void strayClosingTagIsAParseErrorNotATruncation() {
		assertThatExceptionOfType(PromptException.class)
			.isThrownBy(() -> this.templates.register("bad", "Hello\n{{name}} {{/if}} and the rest"))
			.satisfies((ex) -> {
				assertThat(ex.kind()).isEqualTo(PromptException.Kind.PARSE);
				assertThat(ex.template()).isEqualTo("bad");
			})
			.withMessage("Template 'bad' line 2, column 10: {{/if}} closes no open block");
	}

	@Test
	void unclosedTagsAndBlocksAreParseErrors() {
		assertThatExceptionOfType(PromptException.class).isThrownBy(() -> PromptTemplate.compile("Hi {{name"))
			.withMessage("Template 'inline' line 1, column 4: a tag opened with {{ is not closed with }}");
		assertThatExceptionOfType(PromptException.class).isThrownBy(() -> PromptTemplate.compile("{{#if a}}x"))
			.withMessage("Template 'inline': the {{#if}} block is not closed with {{/if}}");
		assertThatExceptionOfType(PromptException.class).isThrownBy(() -> PromptTemplate.compile("{{#each a}}x{{/if}}"))
			.withMessage("Template 'inline' line 1, column 13: {{/if}} closes the {{#each}} block");
		assertThatExceptionOfType(PromptException.class).isThrownBy(() -> PromptTemplate.compile("{{#raw}}x"))
			.withMessage("Template 'inline' line 1, column 1: the {{#raw}} block is not closed with {{/raw}}");
	}

	@Test
	void lazyTemplatesCompileOnFirstUse() {
		this.templates.registerLazy("later", "{{#if}}");

		assertThat(this.templates.names()).containsExactly("later");
		assertThatExceptionOfType(PromptException.class).isThrownBy(() -> this.templates.get("later"))
			.satisfies((ex) -> assertThat(ex.kind()).isEqualTo(PromptException.Kind.PARSE))
			.withMessageStartingWith("Template 'later'");
	}

	@Test
	void unknownTemplateFailsListingTheKnownOnes() {
		this.templates.register("b", "B");
		this.templates.register("a", "A");

		assertThatExceptionOfType(PromptException.class).isThrownBy(() -> this.templates.render("c", Map.of()))
			.satisfies((ex) -> assertThat(ex.kind()).isEqualTo(PromptException.Kind.TEMPLATE_NOT_FOUND))
			.withMessage("No prompt template 'c'; templates: [a, b]");
	}

	@Test
	void aTemplateShowsItselfAsWritten() {
		PromptTemplate template = this.templates.register("t", "Hi {{#raw}}{{x}}{{/raw}} {{> p}}");

		assertThat(template).hasToString("Hi {{#raw}}{{x}}{{/raw}} {{> p}}");
		assertThat(template.name()).isEqualTo("t");
	}

}
