package dev.agcore.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An assistant with weather, unit conversion and order tools, configured in
 * {@code application.yml} and served under {@code /agents}. Without an API key it runs in
 * demo mode on a scripted model, see {@link dev.agcore.sample.demo.DemoScriptedModel}.
 */
@SpringBootApplication
public class SampleApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}
