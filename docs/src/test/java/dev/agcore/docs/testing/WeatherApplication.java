package dev.agcore.docs.testing;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application whose agents {@link WeatherAgentSliceTests} starts with
 * {@code @AgentTest}, as a user's tests find their {@code @SpringBootApplication}.
 */
@SpringBootApplication
public class WeatherApplication {

}
