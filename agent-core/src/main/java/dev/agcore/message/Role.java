package dev.agcore.message;

/**
 * Who wrote a {@link Message}.
 */
public enum Role {

	SYSTEM, USER, ASSISTANT, TOOL

}
