package dev.agcore.middleware.builtin;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.ToolCallHandler;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Redacts, masks or blocks emails, phone numbers, credit card numbers and API keys, with a
 * {@link PiiStrategy} per {@link PiiType}. It rewrites what the model receives and what is
 * stored:
 * <ul>
 * <li>the user's new message, in {@code beforeAgent};</li>
 * <li>the model's answer text, in {@code afterModel} (tool-call arguments are left as the
 * model wrote them, so tools still get what they need);</li>
 * <li>tool results, in {@code wrapToolCall}, when {@link Builder#toolResults(boolean)} is
 * on;</li>
 * <li>every request, in {@code beforeModel}, as a safety net for history stored before
 * this middleware was added.</li>
 * </ul>
 * {@link PiiStrategy#BLOCK} fails the turn when the value is in new content (input, output
 * or a tool result); in older history, which the user can no longer change, it redacts
 * instead. When output is checked, a streamed turn sends each answer as one text event
 * after {@code afterModel} ran (see {@link #rewritesModelOutput()}), so no raw value is
 * streamed.
 * <pre>
 * agent.middleware(PiiRedactionMiddleware.builder().redact(PiiType.EMAIL).mask(PiiType.CREDIT_CARD)
 *     .block(PiiType.API_KEY).build());
 * </pre>
 */
public final class PiiRedactionMiddleware implements AgentMiddleware {

	private final PiiDetector detector;

	private final boolean input;

	private final boolean output;

	private final boolean toolResults;

	private PiiRedactionMiddleware(Builder builder) {
		this.detector = new PiiDetector(builder.effectiveStrategies());
		this.input = builder.input;
		this.output = builder.output;
		this.toolResults = builder.toolResults;
	}

	/**
	 * Start building; without any strategy set, every type is redacted.
	 * @return the builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Return a function that redacts every type of personal data this middleware knows
	 * from a text, never blocking: for texts that leave the conversation, such as
	 * captured content on spans.
	 * @return the redacting function
	 */
	public static UnaryOperator<String> redactor() {
		PiiDetector detector = new PiiDetector(new Builder().effectiveStrategies());
		return (text) -> detector.apply(text, null);
	}

	@Override
	public boolean rewritesModelOutput() {
		return this.output;
	}

	@Override
	public void beforeAgent(AgentContext context, List<Message> messages) {
		int last = messages.size() - 1;
		if (this.input && last >= 0 && messages.get(last) instanceof UserMessage user) {
			String text = this.detector.apply(user.text(), "the user's message");
			if (!text.equals(user.text())) {
				messages.set(last, new UserMessage(text));
			}
		}
	}

	@Override
	public ChatRequest beforeModel(AgentContext context, ChatRequest request) {
		@Nullable List<Message> messages = null;
		for (int i = 0; i < request.messages().size(); i++) {
			Message message = request.messages().get(i);
			Message redacted = redactHistory(message);
			if (redacted != message) {
				if (messages == null) {
					messages = new ArrayList<>(request.messages());
				}
				messages.set(i, redacted);
			}
		}
		return (messages != null) ? new ChatRequest(messages, request.tools(), request.options()) : request;
	}

	@Override
	public ChatResponse afterModel(AgentContext context, ChatRequest request, ChatResponse response) {
		if (!this.output) {
			return response;
		}
		AssistantMessage message = response.message();
		String text = this.detector.apply(message.text(), "the model's answer");
		if (text.equals(message.text())) {
			return response;
		}
		return new ChatResponse(new AssistantMessage(text, message.toolCalls()), response.usage(),
				response.finishReason(), response.model());
	}

	@Override
	public Mono<ToolResultMessage> wrapToolCall(AgentContext context, ToolCall call, ToolCallHandler next) {
		if (!this.toolResults) {
			return next.call(call);
		}
		return next.call(call).map((result) -> {
			String text = this.detector.apply(result.text(), "the result of tool '" + call.name() + "'");
			return text.equals(result.text()) ? result
					: new ToolResultMessage(result.toolCallId(), result.toolName(), text, result.error());
		});
	}

	private Message redactHistory(Message message) {
		if (this.input && message instanceof UserMessage user) {
			String text = this.detector.apply(user.text(), null);
			return text.equals(user.text()) ? message : new UserMessage(text);
		}
		if (this.output && message instanceof AssistantMessage assistant) {
			String text = this.detector.apply(assistant.text(), null);
			// the agent that wrote it stays: it is not personal data
			return text.equals(assistant.text()) ? message
					: new AssistantMessage(text, assistant.toolCalls(), null, null, assistant.agent());
		}
		if (this.toolResults && message instanceof ToolResultMessage result) {
			String text = this.detector.apply(result.text(), null);
			return text.equals(result.text()) ? message
					: new ToolResultMessage(result.toolCallId(), result.toolName(), text, result.error());
		}
		return message;
	}

	/**
	 * Builds a {@link PiiRedactionMiddleware}.
	 */
	public static final class Builder {

		private final Map<PiiType, PiiStrategy> strategies = new EnumMap<>(PiiType.class);

		private boolean input = true;

		private boolean output = true;

		private boolean toolResults;

		private Builder() {
		}

		/**
		 * Handle values of a type with a strategy.
		 * @param type the type
		 * @param strategy the strategy
		 * @return this builder
		 */
		public Builder strategy(PiiType type, PiiStrategy strategy) {
			this.strategies.put(Objects.requireNonNull(type, "'type' must not be null"),
					Objects.requireNonNull(strategy, "'strategy' must not be null"));
			return this;
		}

		public Builder strategies(Map<PiiType, PiiStrategy> strategies) {
			strategies.forEach(this::strategy);
			return this;
		}

		public Builder redact(PiiType... types) {
			return apply(PiiStrategy.REDACT, types);
		}

		public Builder mask(PiiType... types) {
			return apply(PiiStrategy.MASK, types);
		}

		public Builder block(PiiType... types) {
			return apply(PiiStrategy.BLOCK, types);
		}

		/**
		 * Set whether user messages are checked; default true.
		 * @param input whether to check user input
		 * @return this builder
		 */
		public Builder input(boolean input) {
			this.input = input;
			return this;
		}

		/**
		 * Set whether the model's answers are checked; default true.
		 * @param output whether to check model output
		 * @return this builder
		 */
		public Builder output(boolean output) {
			this.output = output;
			return this;
		}

		/**
		 * Set whether tool results are checked; default false.
		 * @param toolResults whether to check tool results
		 * @return this builder
		 */
		public Builder toolResults(boolean toolResults) {
			this.toolResults = toolResults;
			return this;
		}

		private Builder apply(PiiStrategy strategy, PiiType... types) {
			for (PiiType type : types) {
				strategy(type, strategy);
			}
			return this;
		}

		public PiiRedactionMiddleware build() {
			if (!this.input && !this.output && !this.toolResults) {
				throw new IllegalStateException("at least one of 'input', 'output' and 'toolResults' must be on");
			}
			return new PiiRedactionMiddleware(this);
		}

		private Map<PiiType, PiiStrategy> effectiveStrategies() {
			if (!this.strategies.isEmpty()) {
				return this.strategies;
			}
			Map<PiiType, PiiStrategy> all = new EnumMap<>(PiiType.class);
			for (PiiType type : PiiType.values()) {
				all.put(type, PiiStrategy.REDACT);
			}
			return all;
		}

	}

}
