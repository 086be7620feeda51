package dev.agcore.runtime;

/**
 * One tool call made during a turn, with its result.
 *
 * @param id the call id
 * @param name the tool name
 * @param arguments the arguments as the model sent them
 * @param result the result text, or the error text sent back to the model
 * @param error whether the call failed
 */
public record ToolExecution(String id, String name, String arguments, String result, boolean error) {

}
