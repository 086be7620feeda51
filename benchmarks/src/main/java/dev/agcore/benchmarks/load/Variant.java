package dev.agcore.benchmarks.load;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What the {@link LoadHarness} measures: the same exchange with the fake server, through
 * more and more of the framework.
 */
public enum Variant {

	/** A JDK {@code HttpClient} sending the bytes agcore sends: the control. */
	RAW("raw", "raw JDK HttpClient", 1),

	/**
	 * Reactor Netty's {@code HttpClient} sending the same bytes: the transport agcore's
	 * providers use, without WebClient and without the framework.
	 */
	NETTY("netty", "raw Reactor Netty HttpClient", 1),

	/** {@code ChatModel.call} through the OpenAI-compatible provider. */
	CALL("call", "ChatModel.call", 1),

	/** {@code Agent.invoke}: one turn, no tools. */
	TURN("turn", "agent turn, no tools", 1),

	/** {@code Agent.invoke}: one turn in which the model calls one tool (two exchanges). */
	TOOL_TURN("tool-turn", "agent turn, one tool call", 2),

	/** {@code Agent.stream}: one streamed turn of {@value FakeOpenAiServer#STREAM_CHUNKS} chunks. */
	STREAM("stream", "streamed turn, 50 chunks", 1);

	private final String id;

	private final String label;

	private final int exchanges;

	Variant(String id, String label, int exchanges) {
		this.id = id;
		this.label = label;
		this.exchanges = exchanges;
	}

	/**
	 * Return the name used on the command line.
	 * @return the name
	 */
	public String id() {
		return this.id;
	}

	/**
	 * Return the name printed in the table.
	 * @return the label
	 */
	public String label() {
		return this.label;
	}

	/**
	 * Return how many model exchanges one operation makes, each waiting the server's delay.
	 * @return the number of exchanges
	 */
	public int exchanges() {
		return this.exchanges;
	}

	static Variant named(String id) {
		for (Variant variant : values()) {
			if (variant.id.equals(id)) {
				return variant;
			}
		}
		throw new IllegalArgumentException("Unknown variant '" + id + "'; expected one of "
				+ Arrays.stream(values()).map(Variant::id).collect(Collectors.joining(", ")));
	}

}
