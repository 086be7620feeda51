package dev.agcore.docs.security;

// tag::whoami[]
import java.security.Principal;

import dev.agcore.Tool;
import org.jspecify.annotations.Nullable;

/**
 * A tool that is given the caller's principal, never part of the schema the model sees.
 */
public class WhoTools {

	@Tool(description = "Tell who the user is")
	public String whoami(@Nullable Principal principal) {
		return (principal != null) ? principal.getName() : "nobody";
	}

}
// end::whoami[]
