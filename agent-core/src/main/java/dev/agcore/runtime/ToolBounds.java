package dev.agcore.runtime;

/**
 * Bounds on what one model response can make the runtime do: how many of its tool calls
 * run at all, and how many at once. The model's output is untrusted input; without these
 * one response could start thousands of tool calls.
 *
 * @param maxCallsPerResponse the calls of one response that run; the rest are answered
 * with an error result and never run
 * @param maxParallelCalls the calls of one response that run at the same time
 */
record ToolBounds(int maxCallsPerResponse, int maxParallelCalls) {

	static final int DEFAULT_MAX_CALLS_PER_RESPONSE = 32;

	static final int DEFAULT_MAX_PARALLEL_CALLS = 8;

	ToolBounds {
		atLeastOne("maxToolCallsPerResponse", maxCallsPerResponse);
		atLeastOne("maxParallelToolCalls", maxParallelCalls);
	}

	static void atLeastOne(String name, int value) {
		if (value < 1) {
			throw new IllegalArgumentException("'" + name + "' must be at least 1, was " + value);
		}
	}

}
