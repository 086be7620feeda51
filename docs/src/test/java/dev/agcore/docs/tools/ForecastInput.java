package dev.agcore.docs.tools;

import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.agcore.ToolParam;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;

// tag::input[]
@JsonClassDescription("Where and when to forecast")
public record ForecastInput(@JsonPropertyDescription("City name, e.g. Paris") @NotBlank String city,
		@ToolParam(description = "Days ahead", defaultValue = "3") @Min(1) @Max(14) int days,
		@ToolParam(defaultValue = "celsius") Unit unit, Optional<LocalDate> from,
		@Nullable @Size(max = 3) List<String> details) {
}
// end::input[]
