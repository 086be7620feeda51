package dev.agcore.provider.anthropic.wire;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatChunk.ReasoningDelta;
import dev.agcore.model.ChatChunk.ToolCallDelta;
import dev.agcore.model.FinishReason;
import dev.agcore.model.ModelResponseException;
import org.jspecify.annotations.Nullable;

/**
 * Turns the events of one stream into chunks. Content blocks are numbered across kinds
 * on the wire; tool calls and reasoning blocks are numbered here each from 0, in the
 * order they start, as {@link ChatChunk} expects. Not thread-safe: one per stream.
 */
public final class AnthropicStreamMapper {

	private final String provider;

	private final AnthropicResponseMapper responseMapper;

	private final boolean answerTool;

	/** What each open wire block is. */
	private final Map<Integer, Block> blocks = new HashMap<>(4);

	private int toolCalls;

	private int reasoningBlocks;

	private boolean answered;

	private @Nullable WireUsage usage;

	private boolean stopped;

	/**
	 * Create a mapper for one stream.
	 * @param provider the provider name used in exceptions
	 * @param responseMapper maps errors and usage
	 * @param answerTool whether a call of the {@link AnthropicRequestMapper#ANSWER_TOOL} is
	 * the answer
	 */
	public AnthropicStreamMapper(String provider, AnthropicResponseMapper responseMapper, boolean answerTool) {
		this.provider = provider;
		this.responseMapper = responseMapper;
		this.answerTool = answerTool;
	}

	/**
	 * Map one event.
	 * @param event the event
	 * @return the chunk, or null when the event carries nothing for the caller
	 * @throws dev.agcore.model.ModelException for an {@code error} event, or a delta of a
	 * block that never started
	 */
	public @Nullable ChatChunk onEvent(StreamEvent event) {
		String type = String.valueOf(event.type());
		return switch (type) {
			case "message_start" -> onMessageStart(event);
			case "content_block_start" -> onBlockStart(event);
			case "content_block_delta" -> onBlockDelta(event);
			case "message_delta" -> onMessageDelta(event);
			case "message_stop" -> {
				this.stopped = true;
				yield null;
			}
			case "error" -> throw this.responseMapper.toException(event.error());
			// content_block_stop, ping, and event types added after this was written
			default -> null;
		};
	}

	/**
	 * Return whether {@code message_stop} arrived: a stream that ends without it was cut.
	 * @return whether the message is complete
	 */
	public boolean stopped() {
		return this.stopped;
	}

	private @Nullable ChatChunk onMessageStart(StreamEvent event) {
		MessagesResponse message = event.message();
		if (message == null) {
			return null;
		}
		this.usage = message.usage();
		return new ChatChunk("", List.of(), (this.usage != null) ? AnthropicResponseMapper.toUsage(this.usage) : null,
				null, message.model());
	}

	private @Nullable ChatChunk onBlockStart(StreamEvent event) {
		ContentBlock block = event.contentBlock();
		if (block == null || event.index() == null) {
			return null;
		}
		int index = event.index();
		switch (String.valueOf(block.type())) {
			case "text" -> {
				this.blocks.put(index, new Block(Kind.TEXT, 0));
				String text = (block.text() != null) ? block.text() : "";
				return text.isEmpty() ? null : ChatChunk.text(text);
			}
			case "tool_use" -> {
				if (this.answerTool && AnthropicRequestMapper.ANSWER_TOOL.equals(block.name())) {
					this.answered = true;
					this.blocks.put(index, new Block(Kind.ANSWER, 0));
					return null;
				}
				int call = this.toolCalls++;
				this.blocks.put(index, new Block(Kind.TOOL, call));
				return new ChatChunk("", List.of(new ToolCallDelta(call, block.id(), block.name(), "")), null, null,
						null);
			}
			case "thinking" -> {
				int reasoning = this.reasoningBlocks++;
				this.blocks.put(index, new Block(Kind.THINKING, reasoning));
				return reasoning(new ReasoningDelta(reasoning, block.thinking(),
						emptyToNull(block.signature()), null));
			}
			case "redacted_thinking" -> {
				int reasoning = this.reasoningBlocks++;
				this.blocks.put(index, new Block(Kind.THINKING, reasoning));
				return reasoning(new ReasoningDelta(reasoning, "", null, block.data()));
			}
			default -> {
				// server tools and other blocks: their deltas are skipped
				this.blocks.put(index, new Block(Kind.OTHER, 0));
				return null;
			}
		}
	}

	private @Nullable ChatChunk onBlockDelta(StreamEvent event) {
		StreamEvent.Delta delta = event.delta();
		if (delta == null || event.index() == null) {
			return null;
		}
		Block block = this.blocks.get(event.index());
		if (block == null) {
			throw new ModelResponseException(this.provider,
					this.provider + " sent a delta for content block " + event.index() + ", which never started");
		}
		return switch (String.valueOf(delta.type())) {
			case "text_delta" -> (block.kind == Kind.TEXT && delta.text() != null && !delta.text().isEmpty())
					? ChatChunk.text(delta.text()) : null;
			case "input_json_delta" -> {
				String json = (delta.partialJson() != null) ? delta.partialJson() : "";
				if (json.isEmpty()) {
					yield null;
				}
				if (block.kind == Kind.ANSWER) {
					yield ChatChunk.text(json);
				}
				yield (block.kind == Kind.TOOL)
						? new ChatChunk("", List.of(new ToolCallDelta(block.position, null, null, json)), null, null,
								null)
						: null;
			}
			case "thinking_delta" -> (block.kind == Kind.THINKING && delta.thinking() != null)
					? reasoning(new ReasoningDelta(block.position, delta.thinking(), null, null)) : null;
			case "signature_delta" -> (block.kind == Kind.THINKING && delta.signature() != null)
					? reasoning(new ReasoningDelta(block.position, "", delta.signature(), null)) : null;
			default -> null;
		};
	}

	private ChatChunk onMessageDelta(StreamEvent event) {
		this.usage = (this.usage != null) ? this.usage.updatedBy(event.usage()) : event.usage();
		String stopReason = (event.delta() != null) ? event.delta().stopReason() : null;
		FinishReason reason = (stopReason != null)
				? AnthropicResponseMapper.finishReason(stopReason, this.answered && this.toolCalls == 0) : null;
		return new ChatChunk("", List.of(), (this.usage != null) ? AnthropicResponseMapper.toUsage(this.usage) : null,
				reason, null);
	}

	private static ChatChunk reasoning(ReasoningDelta delta) {
		return new ChatChunk("", List.of(), null, null, null, delta, "");
	}

	private static @Nullable String emptyToNull(@Nullable String value) {
		return (value != null && !value.isEmpty()) ? value : null;
	}

	private enum Kind {

		TEXT, TOOL, ANSWER, THINKING, OTHER

	}

	private record Block(Kind kind, int position) {

	}

}
