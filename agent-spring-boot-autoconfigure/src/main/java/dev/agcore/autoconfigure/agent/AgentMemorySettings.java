package dev.agcore.autoconfigure.agent;

import java.util.List;
import java.util.Locale;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.AgentMemoryProperties.WindowType;
import dev.agcore.autoconfigure.memory.AgentMemoryProperties;
import dev.agcore.memory.window.ContextWindow;
import dev.agcore.memory.window.TokenCounter;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.builtin.AutoCompactionMiddleware;
import dev.agcore.middleware.builtin.ObservedMiddleware;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatModelRegistry;
import dev.agcore.model.ConfiguredChatModel;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * Turns {@code agent.agents.<name>.memory} into the agent's context window and
 * compaction middleware, checking every value with a message that names its property.
 */
final class AgentMemorySettings {

	/** Messages of the "messages" window when max-messages is not set. */
	static final int DEFAULT_MAX_MESSAGES = 50;

	/** The compaction context window when neither the configuration nor the model gives one. */
	static final long DEFAULT_CONTEXT_WINDOW = 128_000;

	private final ChatModelRegistry models;

	private final @Nullable MeterRegistry meterRegistry;

	AgentMemorySettings(ChatModelRegistry models, @Nullable MeterRegistry meterRegistry) {
		this.models = models;
		this.meterRegistry = meterRegistry;
	}

	/** The counter for the agent's model: its tokenizer when known, else the estimate. */
	static TokenCounter tokenCounter(ChatModel model) {
		return TokenCounter.forModel(model.modelName());
	}

	ContextWindow window(String prefix, AgentMemoryProperties.Window window, ChatModel model) {
		String property = prefix + ".memory.window";
		WindowType type = window.getType();
		if (type == null) {
			type = (window.getMaxTokens() != null) ? WindowType.TOKENS
					: (window.getMaxMessages() != null) ? WindowType.MESSAGES : WindowType.FULL;
		}
		ignoredLimit(property, type, WindowType.MESSAGES, "max-messages", window.getMaxMessages());
		ignoredLimit(property, type, WindowType.TOKENS, "max-tokens", window.getMaxTokens());
		return switch (type) {
			case FULL -> ContextWindow.full();
			case MESSAGES -> {
				Integer max = window.getMaxMessages();
				int maxMessages = (max != null) ? max : DEFAULT_MAX_MESSAGES;
				if (maxMessages < 1) {
					throw new AgentConfigurationException(
							property + ".max-messages must be at least 1 (was " + maxMessages + ")",
							"Set " + property + ".max-messages to how many of the latest messages the model sees, "
									+ "e.g. " + DEFAULT_MAX_MESSAGES + " (the default).");
				}
				yield ContextWindow.lastMessages(maxMessages);
			}
			case TOKENS -> {
				Long maxTokens = window.getMaxTokens();
				if (maxTokens == null || maxTokens < 1) {
					throw new AgentConfigurationException(property + ".max-tokens must be at least 1 with "
							+ property + ".type=tokens (was " + maxTokens + ")",
							"Set " + property + ".max-tokens to how many tokens of the latest messages the model "
									+ "sees, with room left for the system prompt, tools and answer, e.g. 32000.");
				}
				yield ContextWindow.lastTokens(maxTokens, tokenCounter(model));
			}
		};
	}

	/** A limit of another kind of window would be silently ignored: say so instead. */
	private static void ignoredLimit(String property, WindowType type, WindowType limitType, String limit,
			@Nullable Number value) {
		if (value != null && type != limitType) {
			String name = type.name().toLowerCase(Locale.ROOT);
			throw new AgentConfigurationException(property + "." + limit + " is set but " + property + ".type is '"
					+ name + "', which ignores it",
					"Remove " + property + "." + limit + ", or set " + property + ".type to '"
							+ limitType.name().toLowerCase(Locale.ROOT) + "'.");
		}
	}

	/** The configured window, else the one of the agent's named model, else the default. */
	private static long contextWindow(AgentMemoryProperties.Compaction compaction, ChatModel agentModel) {
		Long configured = compaction.getContextWindow();
		if (configured != null) {
			return configured;
		}
		if (agentModel instanceof ConfiguredChatModel named && named.contextWindow() != null) {
			return named.contextWindow();
		}
		return DEFAULT_CONTEXT_WINDOW;
	}

	@Nullable AgentMiddleware compaction(String prefix, AgentMemoryProperties.Compaction compaction,
			ChatModel agentModel) {
		if (!compaction.isEnabled()) {
			return null;
		}
		String property = prefix + ".memory.compaction";
		long contextWindow = contextWindow(compaction, agentModel);
		atLeast(contextWindow, 1, property + ".context-window");
		atLeast(compaction.getReservedTokens(), 0, property + ".reserved-tokens");
		atLeast(compaction.getKeepRecent(), 1, property + ".keep-recent");
		long threshold = contextWindow - compaction.getReservedTokens()
				- AutoCompactionMiddleware.BUFFER_TOKENS;
		if (threshold < 1) {
			throw new AgentConfigurationException(property + ".context-window (" + contextWindow
					+ ") must be larger than " + property + ".reserved-tokens (" + compaction.getReservedTokens()
					+ ") + " + AutoCompactionMiddleware.BUFFER_TOKENS + " buffer tokens",
					"Set " + property + ".context-window to the model's context window, e.g. 128000, or lower "
							+ property + ".reserved-tokens.");
		}
		String provider = compaction.getProvider();
		ChatModel summarizer = StringUtils.hasText(provider) ? this.models.find(provider.strip())
			.orElseThrow(() -> new AgentConfigurationException(property + ".provider: unknown model '" + provider
					+ "'; " + this.models.describeNames(),
					"Use the name of a model under agent.models, a provider under agent.providers or a ChatModel "
							+ "bean, or leave it unset to summarize with the agent's model."))
				: agentModel;
		AgentMiddleware middleware = AutoCompactionMiddleware.builder(summarizer)
			.contextWindow(contextWindow)
			.reservedTokens(compaction.getReservedTokens())
			.keepRecent(compaction.getKeepRecent())
			.tokenCounter(tokenCounter(agentModel))
			.meterRegistry(this.meterRegistry)
			.build();
		return (this.meterRegistry != null) ? ObservedMiddleware.observe(List.of(middleware), this.meterRegistry).get(0)
				: middleware;
	}

	private static void atLeast(long value, long min, String property) {
		if (value < min) {
			throw new AgentConfigurationException(property + " must be at least " + min + " (was " + value + ")",
					"Correct " + property + ".");
		}
	}

}
