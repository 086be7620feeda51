package dev.agcore.sample.middleware;

import java.time.Clock;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

import dev.agcore.message.Message;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.annotation.DynamicPrompt;
import dev.agcore.runtime.AgentRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Tells the model today's date: before every model call, the system prompt becomes the
 * agent's own prompt followed by {@code Today is Sunday, 15 June 2025.} A bean with a
 * hook-annotated method is middleware of every agent, unless an agent lists its
 * middleware in {@code agent.agents.<name>.middleware.use}.
 */
@Component
public class TodayPrompt {

	private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("EEEE, d MMMM yyyy", Locale.ENGLISH);

	private final ObjectProvider<AgentRegistry> agents;

	private final Clock clock;

	public TodayPrompt(ObjectProvider<AgentRegistry> agents, ObjectProvider<Clock> clock) {
		// looked up per call: the agents are built with this bean as their middleware
		this.agents = agents;
		this.clock = clock.getIfAvailable(Clock::systemDefaultZone);
	}

	@DynamicPrompt
	public String prompt(AgentContext context, List<Message> messages) {
		String base = this.agents.getObject().get(context.agentName()).systemPrompt();
		String today = "Today is " + LocalDate.now(this.clock).format(DATE) + ".";
		return base.isEmpty() ? today : base + "\n" + today;
	}

}
