package dev.agcore.docs.structured;

// tag::record[]
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;

// @NotBlank and @Max need Bean Validation: add spring-boot-starter-validation (the starter
// does not bring it); without it, drop them and the answer is only parsed, not validated
record Weather(@NotBlank String city, @Max(60) int celsius) {}
// end::record[]
