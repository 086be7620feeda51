package dev.agcore.benchmarks.startup.app;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The startup harness's application with the starter: the baseline WebFlux application
 * plus agent-spring-boot-starter, one agent in application.properties and one tool.
 */
@SpringBootApplication
public class StartupApplication {

	public static void main(String[] args) {
		SpringApplication.run(StartupApplication.class, args);
	}

}
