package dev.agcore.docs.middleware;

import java.time.LocalDate;
import java.util.List;

import dev.agcore.message.Message;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.annotation.DynamicPrompt;

import org.springframework.stereotype.Component;

// tag::dynamic-prompt[]
@Component
public class TodayPrompt {

	@DynamicPrompt
	public String prompt(AgentContext context, List<Message> messages) {
		return "You help customers of a coffee shop. Today is " + LocalDate.now() + ".";
	}

}
// end::dynamic-prompt[]
