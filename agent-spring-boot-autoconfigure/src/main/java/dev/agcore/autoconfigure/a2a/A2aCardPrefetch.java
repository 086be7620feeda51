package dev.agcore.autoconfigure.a2a;

import dev.agcore.a2a.client.A2aRemoteAgents;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

/**
 * Starts fetching the remotes' Agent Cards in the background once the application is
 * ready, so that the first turn's model already sees the cards' descriptions; startup
 * never waits for a remote.
 */
final class A2aCardPrefetch implements ApplicationListener<ApplicationReadyEvent> {

	private final A2aRemoteAgents remotes;

	A2aCardPrefetch(A2aRemoteAgents remotes) {
		this.remotes = remotes;
	}

	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		this.remotes.prefetch();
	}

}
