package dev.agcore.runtime;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import dev.agcore.AgentException;

/**
 * A request named a model the agent may not use: not one of its
 * {@link AgentBuilder#models(java.util.Map) models}. Thrown before any model call, so
 * nothing of the turn happened. The HTTP endpoint answers it with status 400 and the
 * error {@value #CODE}.
 */
public class ModelNotAllowedException extends AgentException {

	/** The stable error code of this failure. */
	public static final String CODE = "model_not_allowed";

	private final String model;

	private final List<String> allowed;

	/**
	 * Create an exception.
	 * @param agentName the agent
	 * @param model the model the request named
	 * @param allowed the names the agent allows
	 */
	public ModelNotAllowedException(String agentName, String model, Set<String> allowed) {
		super(message(agentName, model, allowed));
		this.model = model;
		this.allowed = List.copyOf(new TreeSet<>(allowed));
	}

	private static String message(String agentName, String model, Set<String> allowed) {
		return "Agent '" + agentName + "' may not use model '" + model + "'; "
				+ (allowed.isEmpty() ? "it allows no other model than its own (omit 'model')"
						: "allowed models: " + new TreeSet<>(allowed));
	}

	/**
	 * Return the stable error code.
	 * @return {@value #CODE}
	 */
	public String code() {
		return CODE;
	}

	/**
	 * Return the model the request named.
	 * @return the name
	 */
	public String model() {
		return this.model;
	}

	/**
	 * Return the model names the agent allows, sorted.
	 * @return the names
	 */
	public List<String> allowed() {
		return this.allowed;
	}

}
