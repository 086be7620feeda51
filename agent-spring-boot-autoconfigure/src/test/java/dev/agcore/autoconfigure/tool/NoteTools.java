package dev.agcore.autoconfigure.tool;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agcore.Tool;

/**
 * Tools of every permission level and a category, recording which of them ran.
 */
class NoteTools {

	private final List<String> calls = new CopyOnWriteArrayList<>();

	@Tool(name = "notes_read", description = "Read a note", category = "notes", permission = "read-only",
			secrets = {})
	String read(String id) {
		this.calls.add("notes_read");
		return "Note " + id;
	}

	@Tool(name = "notes_write", description = "Write a note", category = "notes", permission = "write",
			secrets = {})
	String write(String id, String text) {
		this.calls.add("notes_write");
		return "Saved " + id;
	}

	@Tool(name = "notes_purge", description = "Delete all notes", category = "notes", permission = "destructive",
			secrets = {})
	String purge() {
		this.calls.add("notes_purge");
		return "Purged";
	}

	@Tool(name = "admin_reset", description = "Reset the system", category = "admin", permission = "write",
			secrets = {})
	String reset() {
		this.calls.add("admin_reset");
		return "Reset";
	}

	@Tool(name = "billing_refund", description = "Refund an order", permission = "billing:refund", secrets = {})
	String refund(String orderId) {
		this.calls.add("billing_refund");
		return "Refunded " + orderId;
	}

	List<String> calls() {
		return this.calls;
	}

}
