package dev.agcore.autoconfigure.memory;

import dev.agcore.tool.memory.MemoryScope;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * The memory settings of one agent, under {@code agent.agents.<name>.memory}: what the
 * model sees of the conversation, how the conversation is kept under the model's context
 * window, session memory in the system prompt, and the memory tools.
 *
 * @since 0.1.0
 */
public class AgentMemoryProperties {

	/**
	 * What the model sees of the conversation in each request. The store keeps every
	 * message either way.
	 */
	private final Window window = new Window();

	/**
	 * Automatic compaction of a conversation that nears the model's context window.
	 */
	private final Compaction compaction = new Compaction();

	/**
	 * Whether the session's memory is appended to the system prompt as a
	 * <session-context> block when it is not empty.
	 */
	private boolean sessionContext = true;

	/**
	 * The remember and recall tools, over the long-term memory of the key-value store.
	 */
	@NestedConfigurationProperty
	private final Tools tools = new Tools();

	public boolean isSessionContext() {
		return this.sessionContext;
	}

	public void setSessionContext(boolean sessionContext) {
		this.sessionContext = sessionContext;
	}

	public Tools getTools() {
		return this.tools;
	}

	public Window getWindow() {
		return this.window;
	}

	public Compaction getCompaction() {
		return this.compaction;
	}

	/**
	 * Kinds of context window.
	 */
	public enum WindowType {

		/** The whole conversation. */
		FULL,

		/** The last max-messages messages. */
		MESSAGES,

		/** The last messages that fit in max-tokens tokens. */
		TOKENS

	}

	/**
	 * The context window.
	 */
	public static class Window {

		/**
		 * Which messages the model sees: "full" (all), "messages" (the last
		 * max-messages) or "tokens" (the last that fit in max-tokens). When not set:
		 * "tokens" if max-tokens is set, else "messages" if max-messages is set, else
		 * "full".
		 */
		private @Nullable WindowType type;

		/**
		 * Number of the latest messages the model sees with the "messages" window;
		 * 50 when not set. The current turn is always sent whole, and a tool result
		 * never without its call.
		 */
		private @Nullable Integer maxMessages;

		/**
		 * Tokens of the latest messages the model sees with the "tokens" window, counted
		 * with the model's tokenizer (OpenAI models, with jtokkit) or estimated at four
		 * characters a token. The system prompt and tool definitions are not counted.
		 */
		private @Nullable Long maxTokens;

		public @Nullable WindowType getType() {
			return this.type;
		}

		public void setType(@Nullable WindowType type) {
			this.type = type;
		}

		public @Nullable Integer getMaxMessages() {
			return this.maxMessages;
		}

		public void setMaxMessages(@Nullable Integer maxMessages) {
			this.maxMessages = maxMessages;
		}

		public @Nullable Long getMaxTokens() {
			return this.maxTokens;
		}

		public void setMaxTokens(@Nullable Long maxTokens) {
			this.maxTokens = maxTokens;
		}

	}

	/**
	 * Auto-compaction: over context-window - reserved-tokens - 13000 tokens, old tool
	 * results are pruned, then older turns summarized.
	 */
	public static class Compaction {

		/**
		 * Whether to compact the conversation at the start of a turn when it nears the
		 * model's context window.
		 */
		private boolean enabled;

		/**
		 * Context window of the agent's model, in tokens. Defaults to the context-window
		 * of the agent's model under agent.models, else 128000.
		 */
		private @Nullable Long contextWindow;

		/**
		 * Tokens kept free for the model's answer. Compaction starts at context-window
		 * minus these minus 13000 tokens (95000 with the defaults).
		 */
		private long reservedTokens = 20_000;

		/**
		 * Number of the latest messages never pruned nor summarized.
		 */
		private int keepRecent = 6;

		/**
		 * Model that writes the summaries: the name of a provider under agent.providers
		 * or of a ChatModel bean. The agent's own model when not set.
		 */
		private @Nullable String provider;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable Long getContextWindow() {
			return this.contextWindow;
		}

		public void setContextWindow(@Nullable Long contextWindow) {
			this.contextWindow = contextWindow;
		}

		public long getReservedTokens() {
			return this.reservedTokens;
		}

		public void setReservedTokens(long reservedTokens) {
			this.reservedTokens = reservedTokens;
		}

		public int getKeepRecent() {
			return this.keepRecent;
		}

		public void setKeepRecent(int keepRecent) {
			this.keepRecent = keepRecent;
		}

		public @Nullable String getProvider() {
			return this.provider;
		}

		public void setProvider(@Nullable String provider) {
			this.provider = provider;
		}

	}

	/**
	 * The memory tools of an agent.
	 */
	public static class Tools {

		/**
		 * Whether the agent gets the remember and recall tools, and the retrieve tool when
		 * the application has a Retriever bean.
		 */
		private boolean enabled;

		/**
		 * Whose memory the tools use: "user" (needs a user id with each request),
		 * "session" or "agent" (shared by all sessions of the agent).
		 */
		private MemoryScope scope = MemoryScope.USER;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public MemoryScope getScope() {
			return this.scope;
		}

		public void setScope(MemoryScope scope) {
			this.scope = scope;
		}

	}

}
