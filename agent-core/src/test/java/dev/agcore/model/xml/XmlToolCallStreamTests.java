package dev.agcore.model.xml;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import dev.agcore.message.ToolCall;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link XmlToolCallStream}.
 */
class XmlToolCallStreamTests {

	private static final String WEATHER = """
			<use_tool>
			<name>get_weather</name>
			<args>{"city": "Paris"}</args>
			</use_tool>""";

	@Test
	void aBlockIsACallWithAGeneratedId() {
		XmlToolCallStream.Result result = XmlToolCallStream.parse(WEATHER, 1);
		assertThat(result.text()).isEmpty();
		assertThat(result.calls()).containsExactly(new ToolCall("xml_1", "get_weather", "{\"city\": \"Paris\"}"));
	}

	@Test
	void proseAroundBlocksStaysAndTheBlanksAroundThemGo() {
		XmlToolCallStream.Result result = XmlToolCallStream
			.parse("Let me look.\n\n" + WEATHER + "\n\n" + WEATHER.replace("Paris", "Rome") + "\nOne moment.", 4);
		assertThat(result.text()).isEqualTo("Let me look.\nOne moment.");
		assertThat(result.calls()).extracting(ToolCall::id).containsExactly("xml_4", "xml_5");
		assertThat(result.calls()).extracting(ToolCall::arguments)
			.containsExactly("{\"city\": \"Paris\"}", "{\"city\": \"Rome\"}");
	}

	@Test
	void blanksAndNewlinesInsideTheBlockAndOnOneLineAreRead() {
		XmlToolCallStream.Result result = XmlToolCallStream
			.parse("<use_tool><name>  get_weather\n</name><args>\n\n  {\"city\":\"Paris\"}  \n</args></use_tool>", 1);
		assertThat(result.calls()).containsExactly(new ToolCall("xml_1", "get_weather", "{\"city\":\"Paris\"}"));
	}

	@Test
	void aCodeFenceAroundABlockGoesWithIt() {
		XmlToolCallStream.Result result = XmlToolCallStream.parse("Checking:\n```xml\n" + WEATHER + "\n```\nDone.", 1);
		assertThat(result.text()).isEqualTo("Checking:\nDone.");
		assertThat(result.calls()).hasSize(1);
	}

	@Test
	void aCodeFenceWithoutABlockStaysText() {
		String text = "Here:\n```java\nint a = b < c ? 1 : 2;\n```\n";
		XmlToolCallStream.Result result = XmlToolCallStream.parse(text, 1);
		assertThat(result.text()).isEqualTo(text);
		assertThat(result.calls()).isEmpty();
	}

	@Test
	void cdataIsReadVerbatimEvenWithTagsInside() {
		XmlToolCallStream.Result result = XmlToolCallStream.parse(
				"<use_tool><name><![CDATA[render]]></name><args><![CDATA[{\"html\": \"<b>a</b></args></use_tool>\"}]]></args></use_tool>",
				1);
		assertThat(result.text()).isEmpty();
		assertThat(result.calls())
			.containsExactly(new ToolCall("xml_1", "render", "{\"html\": \"<b>a</b></args></use_tool>\"}"));
	}

	@Test
	void entitiesOutsideCdataAreUnescaped() {
		XmlToolCallStream.Result result = XmlToolCallStream
			.parse("<use_tool><name>calc</name><args>{\"q\": \"1 &lt; 2 &amp;&amp; 3 &gt; 2\"}</args></use_tool>", 1);
		assertThat(result.calls().get(0).arguments()).isEqualTo("{\"q\": \"1 < 2 && 3 > 2\"}");
	}

	@Test
	void invalidJsonArgumentsArePassedOnAsWritten() {
		XmlToolCallStream.Result result = XmlToolCallStream
			.parse("<use_tool><name>get_weather</name><args>city: Paris</args></use_tool>", 1);
		assertThat(result.calls()).containsExactly(new ToolCall("xml_1", "get_weather", "city: Paris"));
	}

	@Test
	void missingOrEmptyArgumentsAreAnEmptyObject() {
		assertThat(XmlToolCallStream.parse("<use_tool><name>now</name></use_tool>", 1).calls().get(0).arguments())
			.isEqualTo("{}");
		assertThat(XmlToolCallStream.parse("<use_tool><name>now</name><args/></use_tool>", 1).calls().get(0).arguments())
			.isEqualTo("{}");
	}

	@Test
	void argumentsInACodeFenceLoseTheFence() {
		XmlToolCallStream.Result result = XmlToolCallStream
			.parse("<use_tool><name>a</name><args>```json\n{\"x\": 1}\n```</args></use_tool>", 1);
		assertThat(result.calls().get(0).arguments()).isEqualTo("{\"x\": 1}");
	}

	@Test
	void unknownTagsAndTheOrderOfElementsDoNotMatter() {
		XmlToolCallStream.Result result = XmlToolCallStream.parse(
				"<use_tool id=\"1\">\n<reason>need it</reason>\n<args>{\"name\": \"<name>x</name>\"}</args>\n<name>lookup</name>\n</use_tool>",
				1);
		assertThat(result.calls()).containsExactly(new ToolCall("xml_1", "lookup", "{\"name\": \"<name>x</name>\"}"));
	}

	@Test
	void aBlockWithoutANameStaysText() {
		String text = "<use_tool><args>{}</args></use_tool>";
		XmlToolCallStream.Result result = XmlToolCallStream.parse(text, 1);
		assertThat(result.text()).isEqualTo(text);
		assertThat(result.calls()).isEmpty();
	}

	@Test
	void anUnclosedBlockAtTheEndStaysText() {
		String text = "Calling " + WEATHER.substring(0, 40);
		XmlToolCallStream.Result result = XmlToolCallStream.parse(text, 1);
		assertThat(result.calls()).isEmpty();
		assertThat(result.text()).isEqualTo(text);
	}

	@Test
	void similarTagsAndLoneBracketsAreText() {
		String text = "a < b, <use_tools> and <use_toolbox/> and <b>bold</b> ``inline``";
		XmlToolCallStream.Result result = XmlToolCallStream.parse(text, 1);
		assertThat(result.text()).isEqualTo(text);
		assertThat(result.calls()).isEmpty();
	}

	@Test
	void aPossibleTagIsHeldBackAndReleasedWhenItIsNone() {
		XmlToolCallStream stream = new XmlToolCallStream();
		assertThat(stream.feed("Hello <").text()).isEqualTo("Hello");
		assertThat(stream.feed("use_").text()).isEmpty();
		assertThat(stream.feed("r>").text()).isEqualTo(" <use_r>");
		assertThat(stream.finish().text()).isEmpty();
	}

	@Test
	void theTagNeverReachesTheProseWhenStreamed() {
		XmlToolCallStream stream = new XmlToolCallStream();
		List<String> prose = new ArrayList<>();
		List<ToolCall> calls = new ArrayList<>();
		for (String delta : List.of("Sure.", "\n<", "use", "_tool>\n<name>get_", "weather</name>", "<args>{}</args>",
				"</use_", "tool>", "\n")) {
			XmlToolCallStream.Result result = stream.feed(delta);
			prose.add(result.text());
			calls.addAll(result.calls());
		}
		prose.add(stream.finish().text());
		assertThat(String.join("", prose)).isEqualTo("Sure.");
		assertThat(prose).noneMatch((text) -> text.contains("<") || text.contains("use_tool"));
		assertThat(calls).extracting(ToolCall::name).containsExactly("get_weather");
	}

	@Test
	void anySplitIntoDeltasGivesTheSameResultAsTheWholeText() {
		List<String> texts = List.of("Let me look.\n\n" + WEATHER + "\nand\n```xml\n" + WEATHER + "\n```\nThanks `x` <b>",
				"a < b\n```python\nprint(1)\n```\n<use_tool><name>x</name><args><![CDATA[</use_tool>]]></args></use_tool>  end",
				"<use_tool><args>{}</args></use_tool> and <use_tool><name>open", "no tags at all   \n",
				"``` \n<use_tool>\n<name>a</name>\n</use_tool>``", "<use_tool>\n<name>a</name>\n</use_tool>\n```tail");
		Random random = new Random(42);
		for (String text : texts) {
			XmlToolCallStream.Result whole = XmlToolCallStream.parse(text, 1);
			for (int round = 0; round < 300; round++) {
				XmlToolCallStream stream = new XmlToolCallStream(1);
				XmlToolCallStream.Result fed = new XmlToolCallStream.Result("", List.of());
				int position = 0;
				while (position < text.length()) {
					int end = Math.min(text.length(), position + 1 + random.nextInt(8));
					fed = fed.append(stream.feed(text.substring(position, end)));
					position = end;
				}
				fed = fed.append(stream.finish());
				assertThat(fed).as("%s, round %d", text, round).isEqualTo(whole);
			}
		}
	}

}
