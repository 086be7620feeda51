package dev.agcore.workflow;

/**
 * A checkpoint was written by a newer version of agcore in a format this version cannot
 * read. The run cannot continue here; run it on the newer version.
 *
 * @since 0.1.0
 */
public class CheckpointFormatException extends RuntimeException {

	public CheckpointFormatException(String runId, int formatVersion) {
		super("The checkpoint of run '" + runId + "' has format version " + formatVersion + ", newer than the "
				+ "version " + Checkpoint.FORMAT_VERSION + " this agcore reads: continue the run on the newer "
				+ "agcore version that wrote it");
	}

}
