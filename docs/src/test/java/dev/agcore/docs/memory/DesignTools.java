package dev.agcore.docs.memory;

import dev.agcore.Tool;
import dev.agcore.memory.SessionMemory;

/** A tool that writes the session memory, from docs/memory.md. */
public class DesignTools {

	// tag::tool[]
	@Tool(name = "choose_database", description = "Record the chosen database")
	String choose(String name, SessionMemory memory) {
		memory.put("design", name);
		return "noted";
	}
	// end::tool[]

}
