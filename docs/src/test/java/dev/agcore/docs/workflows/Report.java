package dev.agcore.docs.workflows;

/** What the report workflow of docs/workflows.md gives. */
record Report(String text, boolean published) {
}
