package dev.agcore.autoconfigure.test.sample;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small application whose agents the {@code @AgentTest} tests start.
 */
@SpringBootApplication
public class SampleAgentApplication {

}
