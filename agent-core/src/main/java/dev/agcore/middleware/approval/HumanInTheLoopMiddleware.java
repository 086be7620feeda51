package dev.agcore.middleware.approval;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.ToolCallHandler;
import dev.agcore.middleware.ToolCallInterrupt;
import reactor.core.publisher.Mono;

/**
 * Pauses the turn before listed tools run, until a person decides. The turn ends with
 * status {@code INTERRUPTED} and the pending calls; the conversation store keeps the
 * paused turn, so it can be resumed later, even after a restart with a persistent store,
 * with {@code Agent.resume} and an approve, edit or reject decision per call.
 * <p>
 * Register it last (innermost) when other middleware, such as tool retry or limits,
 * should not see paused calls.
 */
public final class HumanInTheLoopMiddleware implements AgentMiddleware {

	private final Map<String, String> reasonsByTool;

	/**
	 * Create a middleware that pauses before the given tools.
	 * @param reasonsByTool tool name to the reason shown to the person deciding
	 */
	public HumanInTheLoopMiddleware(Map<String, String> reasonsByTool) {
		this.reasonsByTool = Map.copyOf(Objects.requireNonNull(reasonsByTool, "'reasonsByTool' must not be null"));
	}

	/**
	 * Create a middleware that pauses before the given tools, with a generic reason.
	 * @param toolNames the tools that need approval
	 * @return the middleware
	 */
	public static HumanInTheLoopMiddleware forTools(Set<String> toolNames) {
		return new HumanInTheLoopMiddleware(
				toolNames.stream().collect(java.util.stream.Collectors.toMap((name) -> name, (name) -> "requires approval")));
	}

	public Set<String> gatedTools() {
		return this.reasonsByTool.keySet();
	}

	@Override
	public Mono<ToolResultMessage> wrapToolCall(AgentContext context, ToolCall call, ToolCallHandler next) {
		String reason = this.reasonsByTool.get(call.name());
		// a call the permission policy refuses is not worth a human's decision
		if (reason == null || context.isApproved(call.id()) || context.isDenied(call.id())) {
			return next.call(call);
		}
		return Mono.error(new ToolCallInterrupt(call, reason));
	}

	@Override
	public String name() {
		return "human-in-the-loop";
	}

}
