package dev.agcore.testing.assertj;

import java.util.List;
import java.util.Optional;

import dev.agcore.memory.PendingTurn.PendingToolCall;
import dev.agcore.message.ToolCall;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.ToolExecution;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on the outcome of a turn: how it ended, its answer, the tools it called and
 * the tokens it used.
 */
public final class AgentResultAssert extends AbstractAssert<AgentResultAssert, AgentResult> {

	AgentResultAssert(AgentResult actual) {
		super(actual, AgentResultAssert.class);
	}

	/**
	 * Verify that the model gave a final answer.
	 * @return this
	 */
	public AgentResultAssert isCompleted() {
		return hasStatus(AgentResult.Status.COMPLETED);
	}

	/**
	 * Verify that the turn waits for a human decision on tool calls.
	 * @return this
	 */
	public AgentResultAssert isInterrupted() {
		return hasStatus(AgentResult.Status.INTERRUPTED);
	}

	/**
	 * Verify how the turn ended.
	 * @param status the expected status
	 * @return this
	 */
	public AgentResultAssert hasStatus(AgentResult.Status status) {
		isNotNull();
		if (this.actual.status() != status) {
			failWithMessage("Expected the turn to end %s but it ended %s with output:%n  \"%s\"", status,
					this.actual.status(), this.actual.output());
		}
		return this;
	}

	/**
	 * Verify the final answer, exactly.
	 * @param output the expected answer
	 * @return this
	 */
	public AgentResultAssert endedWith(String output) {
		isNotNull();
		if (!this.actual.output().equals(output)) {
			failWithMessage("Expected the turn to end with%n  \"%s\"%nbut it ended with%n  \"%s\"", output,
					this.actual.output());
		}
		return this;
	}

	/**
	 * Verify that the final answer contains the given text.
	 * @param text the text
	 * @return this
	 */
	public AgentResultAssert outputContains(String text) {
		isNotNull();
		if (!this.actual.output().contains(text)) {
			failWithMessage("Expected the answer to contain%n  \"%s\"%nbut it was%n  \"%s\"", text,
					this.actual.output());
		}
		return this;
	}

	/**
	 * Verify that the turn called a tool, and assert on its first call.
	 * @param name the tool name
	 * @return an assertion on that call
	 */
	public ToolCallAssert calledTool(String name) {
		isNotNull();
		Optional<ToolExecution> execution = this.actual.toolExecutions()
			.stream()
			.filter((candidate) -> candidate.name().equals(name))
			.findFirst();
		if (execution.isEmpty()) {
			failWithMessage("Expected the turn to call tool '%s' but it called %s", name, calledNames());
		}
		ToolExecution call = execution.orElseThrow();
		return new ToolCallAssert(new ToolCall(call.id(), call.name(), call.arguments()), call.result(), call.error())
			.as("tool call '%s'", name);
	}

	/**
	 * Verify the tools the turn called, exactly and in order.
	 * @param names the tool names
	 * @return this
	 */
	public AgentResultAssert calledTools(String... names) {
		isNotNull();
		if (!calledNames().equals(List.of(names))) {
			failWithMessage("Expected the turn to call the tools%n  %s%nbut it called%n  %s", List.of(names),
					calledNames());
		}
		return this;
	}

	/**
	 * Verify that the turn did not call a tool.
	 * @param name the tool name
	 * @return this
	 */
	public AgentResultAssert didNotCallTool(String name) {
		isNotNull();
		if (calledNames().contains(name)) {
			failWithMessage("Expected the turn not to call tool '%s' but it called %s", name, calledNames());
		}
		return this;
	}

	/**
	 * Verify that a tool call waits for approval, and assert on it.
	 * @param name the tool name
	 * @return an assertion on the pending call
	 */
	public ToolCallAssert hasPendingApproval(String name) {
		isNotNull();
		List<PendingToolCall> pending = this.actual.pendingToolCalls();
		Optional<PendingToolCall> call = pending.stream().filter((candidate) -> candidate.name().equals(name)).findFirst();
		if (call.isEmpty()) {
			failWithMessage("Expected a call of tool '%s' to wait for approval but %s (turn status %s)", name,
					pending.isEmpty() ? "none does"
							: "only " + pending.stream().map(PendingToolCall::name).toList() + " do",
					this.actual.status());
		}
		PendingToolCall found = call.orElseThrow();
		return new ToolCallAssert(new ToolCall(found.id(), found.name(), found.arguments()), null, false)
			.as("pending call '%s'", name);
	}

	/**
	 * Verify the total tokens of the turn's model calls.
	 * @param totalTokens the expected total
	 * @return this
	 */
	public AgentResultAssert usedTokens(long totalTokens) {
		isNotNull();
		if (this.actual.usage().totalTokens() != totalTokens) {
			failWithMessage("Expected the turn to use %s tokens but it used %s", totalTokens, describeUsage());
		}
		return this;
	}

	/**
	 * Verify that the turn's model calls used at most so many tokens in total.
	 * @param totalTokens the most tokens allowed
	 * @return this
	 */
	public AgentResultAssert usedAtMostTokens(long totalTokens) {
		isNotNull();
		if (this.actual.usage().totalTokens() > totalTokens) {
			failWithMessage("Expected the turn to use at most %s tokens but it used %s", totalTokens, describeUsage());
		}
		return this;
	}

	private String describeUsage() {
		return this.actual.usage().totalTokens() + " (" + this.actual.usage().inputTokens() + " input, "
				+ this.actual.usage().outputTokens() + " output)";
	}

	private List<String> calledNames() {
		return this.actual.toolExecutions().stream().map(ToolExecution::name).toList();
	}

}
