package dev.agcore.autoconfigure.test.sample;

import org.springframework.stereotype.Service;

/**
 * A bean that is not a tool, which {@code @AgentTest} leaves out.
 */
@Service
public class GreetingService {

	public String greet(String name) {
		return "Hello " + name;
	}

}
