package dev.agcore.docs.tools;

import java.time.Clock;
import java.time.DayOfWeek;
import java.time.LocalTime;

import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.permission.PermissionDecision;
import dev.agcore.tool.permission.ToolPermissionPolicy;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The beans of docs/tools.md's Spring Boot section. */
@Configuration(proxyBeanMethods = false)
class ToolsConfiguration {

	// tag::typed-bean[]
	@Bean
	ForecastTool forecastTool() {
		return new ForecastTool();
	}
	// end::typed-bean[]

	// tag::policy[]
	@Bean
	ToolPermissionPolicy officeHours(Clock clock) {
		return (agent, tool, call) -> (tool.metadata().permission().equals(ToolPermission.DESTRUCTIVE)
				&& !isOfficeHours(clock)) ? PermissionDecision.deny("destructive tools only run in office hours")
						: PermissionDecision.allow();
	}
	// end::policy[]

	static boolean isOfficeHours(Clock clock) {
		LocalTime now = LocalTime.now(clock);
		DayOfWeek day = java.time.LocalDate.now(clock).getDayOfWeek();
		return day.getValue() <= 5 && now.isAfter(LocalTime.of(9, 0)) && now.isBefore(LocalTime.of(17, 0));
	}

}
