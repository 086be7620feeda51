package dev.agcore.benchmarks.startup.app;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The baseline of the startup harness: a WebFlux application as start.spring.io generates
 * it, with one controller. Its twin in {@code benchmarks/startup/agent} adds the starter.
 */
@SpringBootApplication
public class StartupApplication {

	public static void main(String[] args) {
		SpringApplication.run(StartupApplication.class, args);
	}

}
