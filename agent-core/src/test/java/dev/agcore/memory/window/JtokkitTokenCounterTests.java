package dev.agcore.memory.window;

import java.util.List;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.UserMessage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JtokkitTokenCounterTests {

	@Test
	void countsTextAsTheOpenAiTokenizersDo() {
		// token counts published for tiktoken: "hello world" is [15339, 1917] in cl100k_base
		assertThat(JtokkitTokenCounter.cl100k().countText("hello world")).isEqualTo(2);
		assertThat(JtokkitTokenCounter.cl100k().countText("tiktoken is great!")).isEqualTo(6);
		assertThat(JtokkitTokenCounter.o200k().countText("tiktoken is great!")).isEqualTo(6);
		assertThat(JtokkitTokenCounter.cl100k().countText("")).isZero();
	}

	@Test
	void theEncodingsDifferWhereTheirVocabulariesDo() {
		String text = "Привет, как дела? Давайте поговорим о погоде.";
		assertThat(JtokkitTokenCounter.o200k().countText(text))
			.isLessThan(JtokkitTokenCounter.cl100k().countText(text));
	}

	@Test
	void messagesAddTheirFramingAndToolCalls() {
		JtokkitTokenCounter counter = JtokkitTokenCounter.o200k();
		assertThat(counter.count(new UserMessage("tiktoken is great!"))).isEqualTo(4 + 6);
		ToolCall call = new ToolCall("c1", "get_weather", "{\"city\":\"Paris\"}");
		long expected = 4 + 3 + counter.countText("get_weather") + counter.countText("{\"city\":\"Paris\"}");
		assertThat(counter.count(AssistantMessage.of(List.of(call)))).isEqualTo(expected);
		assertThat(counter.count(List.of(new UserMessage("tiktoken is great!"), new UserMessage("hello world"))))
			.isEqualTo(10 + 6);
	}

	@Test
	void specialTokenMarkersAreCountedAsText() {
		// encoded as ordinary text: a message cannot smuggle a control token in, nor fail the count
		assertThat(JtokkitTokenCounter.cl100k().countText("<|endoftext|>")).isGreaterThan(1);
	}

	@Test
	void picksTheEncodingByModelName() {
		assertThat(JtokkitTokenCounter.forModel("gpt-4o-mini").encodingName()).isEqualTo("o200k_base");
		assertThat(JtokkitTokenCounter.forModel("gpt-4.1").encodingName()).isEqualTo("o200k_base");
		assertThat(JtokkitTokenCounter.forModel("o3-mini").encodingName()).isEqualTo("o200k_base");
		assertThat(JtokkitTokenCounter.forModel("o1").encodingName()).isEqualTo("o200k_base");
		assertThat(JtokkitTokenCounter.forModel("openai/GPT-4o").encodingName()).isEqualTo("o200k_base");
		assertThat(JtokkitTokenCounter.forModel("gpt-4-turbo").encodingName()).isEqualTo("cl100k_base");
		assertThat(JtokkitTokenCounter.forModel("gpt-3.5-turbo").encodingName()).isEqualTo("cl100k_base");
		assertThat(JtokkitTokenCounter.forModel("llama3.1:8b")).isNull();
		assertThat(JtokkitTokenCounter.forModel("ollama")).isNull();
	}

	@Test
	void otherModelsGetTheDocumentedEstimate() {
		assertThat(TokenCounter.forModel("llama3.1:8b")).isSameAs(TokenCounter.ESTIMATE);
		assertThat(TokenCounter.forModel("gpt-4o")).isInstanceOf(JtokkitTokenCounter.class);
		// four characters a token, rounded up, plus four of framing
		assertThat(TokenCounter.ESTIMATE.count(new UserMessage("12345678"))).isEqualTo(4 + 2);
		assertThat(TokenCounter.ESTIMATE.count(new UserMessage("123456789"))).isEqualTo(4 + 3);
	}

}
