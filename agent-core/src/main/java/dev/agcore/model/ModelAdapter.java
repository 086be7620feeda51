package dev.agcore.model;

/**
 * A per-model-family adjustment of the requests an agent sends: options a family rejects,
 * guidance it needs, message shapes it cannot take. Applied by the agent before every
 * model call, after middleware, in order; every adapter that supports the model applies.
 * Implementations are stateless and thread-safe. {@link ModelAdapters#builtIns()} lists
 * the built-in ones.
 */
public interface ModelAdapter {

	/**
	 * Return whether this adapter applies to a model. The answer must depend only on the
	 * two arguments: an agent asks once per provider and model name and remembers it.
	 * @param provider the provider, as {@link ChatModel#providerName()} reports it
	 * @param modelName the model requested: the request options' model if set, else
	 * {@link ChatModel#modelName()}
	 * @return whether to adapt requests to it
	 */
	boolean supports(String provider, String modelName);

	/**
	 * Adjust a request.
	 * @param request the request
	 * @return the request to send instead, or the same one
	 */
	ChatRequest adapt(ChatRequest request);

}
