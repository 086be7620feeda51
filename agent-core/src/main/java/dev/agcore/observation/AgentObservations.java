package dev.agcore.observation;

import java.util.Objects;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import org.jspecify.annotations.Nullable;
import reactor.util.context.ContextView;

/**
 * Where an agent's observations go and how they are named: an
 * {@link ObservationRegistry}, a convention per observation (null for the default), and
 * whether content is captured. {@link #NOOP} observes nothing, and costs nothing on the
 * agent's hot paths.
 * <pre>
 * Agent.builder().observations(AgentObservations.builder(registry).build())
 * </pre>
 */
public final class AgentObservations {

	/** Observes nothing. */
	public static final AgentObservations NOOP = new AgentObservations(ObservationRegistry.NOOP, null, null, null,
			ContentCapture.OFF);

	private static final DefaultInvokeAgentObservationConvention DEFAULT_INVOKE_AGENT = new DefaultInvokeAgentObservationConvention();

	private static final DefaultChatObservationConvention DEFAULT_CHAT = new DefaultChatObservationConvention();

	private static final DefaultExecuteToolObservationConvention DEFAULT_EXECUTE_TOOL = new DefaultExecuteToolObservationConvention();

	private final ObservationRegistry registry;

	private final @Nullable InvokeAgentObservationConvention invokeAgentConvention;

	private final @Nullable ChatObservationConvention chatConvention;

	private final @Nullable ExecuteToolObservationConvention executeToolConvention;

	private final ContentCapture contentCapture;

	private AgentObservations(ObservationRegistry registry,
			@Nullable InvokeAgentObservationConvention invokeAgentConvention,
			@Nullable ChatObservationConvention chatConvention,
			@Nullable ExecuteToolObservationConvention executeToolConvention, ContentCapture contentCapture) {
		this.registry = registry;
		this.invokeAgentConvention = invokeAgentConvention;
		this.chatConvention = chatConvention;
		this.executeToolConvention = executeToolConvention;
		this.contentCapture = contentCapture;
	}

	/**
	 * Start building observations recorded in the given registry.
	 * @param registry the registry
	 * @return a builder
	 */
	public static Builder builder(ObservationRegistry registry) {
		return new Builder(registry);
	}

	/**
	 * Return the registry.
	 * @return the registry
	 */
	public ObservationRegistry registry() {
		return this.registry;
	}

	/**
	 * Return whether nothing is observed, so callers can skip building contexts.
	 * @return whether the registry is a no-op
	 */
	public boolean isNoop() {
		return this.registry.isNoop();
	}

	/**
	 * Return what content is captured.
	 * @return the content capture settings
	 */
	public ContentCapture contentCapture() {
		return this.contentCapture;
	}

	/**
	 * Create (not start) the observation of a turn.
	 * @param context the turn's context
	 * @param parent the observation the turn runs in, or null
	 * @return the observation
	 */
	public Observation invokeAgent(InvokeAgentObservationContext context, @Nullable Observation parent) {
		return AgentObservationDocumentation.INVOKE_AGENT
			.observation(this.invokeAgentConvention, DEFAULT_INVOKE_AGENT, () -> context, this.registry)
			.parentObservation(parent);
	}

	/**
	 * Create (not start) the observation of a model call.
	 * @param context the call's context
	 * @param parent the turn's observation, or null
	 * @return the observation
	 */
	public Observation chat(ChatObservationContext context, @Nullable Observation parent) {
		return AgentObservationDocumentation.CHAT
			.observation(this.chatConvention, DEFAULT_CHAT, () -> context, this.registry)
			.parentObservation(parent);
	}

	/**
	 * Create (not start) the observation of a tool call.
	 * @param context the call's context
	 * @param parent the turn's observation, or null
	 * @return the observation
	 */
	public Observation executeTool(ExecuteToolObservationContext context, @Nullable Observation parent) {
		return AgentObservationDocumentation.EXECUTE_TOOL
			.observation(this.executeToolConvention, DEFAULT_EXECUTE_TOOL, () -> context, this.registry)
			.parentObservation(parent);
	}

	/**
	 * Return the observation a Reactor context carries (the turn's, inside a turn).
	 * @param context the Reactor context
	 * @return the observation, or null
	 */
	public static @Nullable Observation current(ContextView context) {
		return context.getOrDefault(ObservationThreadLocalAccessor.KEY, null);
	}

	/**
	 * Builds {@link AgentObservations}.
	 */
	public static final class Builder {

		private final ObservationRegistry registry;

		private @Nullable InvokeAgentObservationConvention invokeAgentConvention;

		private @Nullable ChatObservationConvention chatConvention;

		private @Nullable ExecuteToolObservationConvention executeToolConvention;

		private ContentCapture contentCapture = ContentCapture.OFF;

		private Builder(ObservationRegistry registry) {
			this.registry = Objects.requireNonNull(registry, "'registry' must not be null");
		}

		/**
		 * Name and tag turns with a convention of your own.
		 * @param convention the convention, or null for the default
		 * @return this builder
		 */
		public Builder invokeAgentConvention(@Nullable InvokeAgentObservationConvention convention) {
			this.invokeAgentConvention = convention;
			return this;
		}

		/**
		 * Name and tag model calls with a convention of your own.
		 * @param convention the convention, or null for the default
		 * @return this builder
		 */
		public Builder chatConvention(@Nullable ChatObservationConvention convention) {
			this.chatConvention = convention;
			return this;
		}

		/**
		 * Name and tag tool calls with a convention of your own.
		 * @param convention the convention, or null for the default
		 * @return this builder
		 */
		public Builder executeToolConvention(@Nullable ExecuteToolObservationConvention convention) {
			this.executeToolConvention = convention;
			return this;
		}

		/**
		 * Capture content on spans; off by default.
		 * @param contentCapture what is captured and how it is cleaned
		 * @return this builder
		 */
		public Builder contentCapture(ContentCapture contentCapture) {
			this.contentCapture = Objects.requireNonNull(contentCapture, "'contentCapture' must not be null");
			return this;
		}

		public AgentObservations build() {
			return new AgentObservations(this.registry, this.invokeAgentConvention, this.chatConvention,
					this.executeToolConvention, this.contentCapture);
		}

	}

}
