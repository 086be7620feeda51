package dev.agcore.runtime;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ToolChoice;
import dev.agcore.tool.ToolSpec;
import reactor.core.publisher.Mono;

/**
 * Planner-first: one model call decides which tools to use, they run (in parallel, through
 * the agent's tool runner, middleware, permissions and approvals), then one call answers
 * with their results and tool choice none. No loop: at most two model calls. When the
 * first call asks for no tool, its answer is the turn's answer.
 */
final class PlannerRunner implements TurnRunner {

	private final DefaultAgent agent;

	private final ModelStep step;

	private final Map<String, String> aliases;

	PlannerRunner(DefaultAgent agent, ModelStep step, Map<String, String> aliases) {
		this.agent = agent;
		this.step = step;
		this.aliases = aliases;
	}

	@Override
	public Mono<Void> run(Turn turn, TurnListener listener) {
		List<ToolSpec> specs = this.agent.tools();
		List<Message> messages = turn.turnMessages();
		Message input = messages.isEmpty() ? null : messages.get(0);
		PlannerCommands commands = (input instanceof UserMessage user)
				? PlannerCommands.parse(user.text(), this.aliases,
						specs.stream().map(ToolSpec::name).collect(Collectors.toSet()))
				: new PlannerCommands(List.of(), "");
		UnaryOperator<ChatRequest> shape = commands.tools().isEmpty() ? UnaryOperator.identity()
				: (request) -> strip(request, (UserMessage) input, commands.text());
		if (turn.isResumed()) {
			// the planning call was made before the turn paused for a decision on its tools
			return answer(turn, specs, shape, listener);
		}
		return this.step
			.call(turn, offered(specs, commands.tools()), planOptions(turn, commands.tools()),
					turn.setup().instructions(), shape, listener)
			.flatMap((response) -> {
				if (!response.message().hasToolCalls()) {
					return FinalAnswers.accept(turn, response);
				}
				List<ToolCall> calls = turn.accept(response);
				return this.agent.runTools(turn, calls, listener, () -> answer(turn, specs, shape, listener));
			});
	}

	private Mono<Void> answer(Turn turn, List<ToolSpec> specs, UnaryOperator<ChatRequest> shape,
			TurnListener listener) {
		// the tools stay offered, as providers expect with tool calls in the conversation, but none may be chosen
		return this.step
			.call(turn, specs, FinalAnswers.answerOptions(turn), turn.setup().instructions(), shape, listener)
			.flatMap((response) -> FinalAnswers.accept(turn, response));
	}

	/** One forced tool is named; several are required, among only them. */
	private static ChatOptions planOptions(Turn turn, List<String> forced) {
		ChatOptions options = turn.setup().options();
		if (forced.isEmpty()) {
			return options;
		}
		return options.mutate()
			.toolChoice((forced.size() == 1) ? ToolChoice.tool(forced.get(0)) : ToolChoice.REQUIRED)
			.build();
	}

	private static List<ToolSpec> offered(List<ToolSpec> specs, List<String> forced) {
		if (forced.size() < 2) {
			return specs;
		}
		Set<String> names = Set.copyOf(forced);
		return specs.stream().filter((spec) -> names.contains(spec.name())).toList();
	}

	/** The request with the command words taken out of the user's message; the stored message keeps them. */
	private static ChatRequest strip(ChatRequest request, UserMessage input, String text) {
		List<Message> messages = request.messages()
			.stream()
			.map((message) -> (message == input) ? (Message) new UserMessage(text, input.media(), input.name())
					: message)
			.toList();
		return new ChatRequest(messages, request.tools(), request.options());
	}

}
