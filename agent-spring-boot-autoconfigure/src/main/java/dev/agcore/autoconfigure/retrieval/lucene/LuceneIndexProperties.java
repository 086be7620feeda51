package dev.agcore.autoconfigure.retrieval.lucene;

import java.nio.file.Path;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the embedded Lucene document index.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "agent.retrieval.lucene", ignoreUnknownFields = false)
public class LuceneIndexProperties {

	/**
	 * Whether to create the Lucene document index.
	 */
	private boolean enabled = true;

	/**
	 * Directory of the index, created if missing and reopened on restart. When unset the
	 * index lives in memory and is lost on shutdown.
	 */
	private @Nullable Path path;

	/**
	 * Rank constant of the reciprocal-rank fusion of keyword and vector results; smaller
	 * values give the top ranks more weight.
	 */
	private int rrfK = 60;

	/**
	 * How many results each channel (keyword, vector) contributes to the fusion.
	 */
	private int candidates = 50;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable Path getPath() {
		return this.path;
	}

	public void setPath(@Nullable Path path) {
		this.path = path;
	}

	public int getRrfK() {
		return this.rrfK;
	}

	public void setRrfK(int rrfK) {
		this.rrfK = rrfK;
	}

	public int getCandidates() {
		return this.candidates;
	}

	public void setCandidates(int candidates) {
		this.candidates = candidates;
	}

}
