package dev.agcore.docs.tools;

import com.fasterxml.jackson.annotation.JsonProperty;

/** A temperature unit, for the tools of docs/tools.md; the model writes it in lower case. */
// tag::unit[]
public enum Unit {

	@JsonProperty("celsius")
	CELSIUS,

	@JsonProperty("fahrenheit")
	FAHRENHEIT

}
// end::unit[]
