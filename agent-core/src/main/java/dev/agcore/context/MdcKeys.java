package dev.agcore.context;

import java.util.HashMap;
import java.util.Map;

import org.slf4j.MDC;
import reactor.core.publisher.Flux;

/**
 * The SLF4J MDC keys set for everything that happens inside a turn: its tools, hooks and
 * sub-agents, on whatever thread they run, and removed after.
 */
public final class MdcKeys {

	/** The agent's name. */
	public static final String AGENT = "agent";

	/** The session id. */
	public static final String SESSION = "session";

	/** The turn's id: new for each turn, so one turn's lines can be found. */
	public static final String TURN = "turn";

	/** The id of the background run a turn belongs to; absent outside background runs. */
	public static final String RUN = "run";

	/**
	 * The Reactor context key of MDC entries ({@code Map<String, String>}) a turn adds to
	 * its caller's MDC: set by code that starts turns, such as a background run, whose
	 * turn may be subscribed on another thread than the one that knows the entry.
	 */
	public static final String CONTEXT_KEY = MdcKeys.class.getName() + ".entries";

	private MdcKeys() {
	}

	/**
	 * Return a flux whose subscription has an MDC entry, as have the turns it starts.
	 * @param <T> the element type
	 * @param key the MDC key
	 * @param value the value
	 * @param source the flux
	 * @return the flux with the entry
	 */
	public static <T> Flux<T> with(String key, String value, Flux<T> source) {
		return Flux.<T>from((subscriber) -> {
			String previous = MDC.get(key);
			MDC.put(key, value);
			try {
				source.subscribe(subscriber);
			}
			finally {
				if (previous != null) {
					MDC.put(key, previous);
				}
				else {
					MDC.remove(key);
				}
			}
		}).contextWrite((context) -> {
			Map<String, String> entries = new HashMap<>(context.getOrDefault(CONTEXT_KEY, Map.of()));
			entries.put(key, value);
			return context.put(CONTEXT_KEY, Map.copyOf(entries));
		});
	}

}
