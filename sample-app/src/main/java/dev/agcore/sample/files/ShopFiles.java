package dev.agcore.sample.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.stereotype.Component;

/**
 * The folder the librarian's MCP filesystem server reads, {@code ${sample.data-dir}/shop-files}:
 * a real folder on disk (the server is another process and cannot read the jar), filled
 * from the files bundled under {@code src/main/resources/shop-files} when they are missing.
 * Files already there are left as they are, so edits survive a restart. Created while the
 * beans are, before the MCP servers connect (they connect once the context is ready).
 */
@Component
@ImportRuntimeHints(ShopFiles.Hints.class)
public class ShopFiles {

	static final String LOCATION = "shop-files";

	private static final Log logger = LogFactory.getLog(ShopFiles.class);

	private final Path folder;

	public ShopFiles(@Value("${sample.data-dir}") Path dataDirectory) {
		this.folder = dataDirectory.resolve(LOCATION).toAbsolutePath();
		try {
			Files.createDirectories(this.folder);
			for (Resource file : new PathMatchingResourcePatternResolver().getResources("classpath:" + LOCATION + "/*")) {
				String name = file.getFilename();
				Path target = (name != null) ? this.folder.resolve(name) : null;
				if (target != null && file.isReadable() && !Files.exists(target)) {
					try (InputStream in = file.getInputStream()) {
						Files.copy(in, target);
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot fill the shop's folder " + this.folder
					+ " for the librarian; set sample.data-dir (AGCORE_SAMPLE_DATA) to a writable folder", ex);
		}
		logger.info("The librarian's MCP filesystem server reads " + this.folder);
	}

	/**
	 * Return the folder.
	 * @return the absolute path of the folder
	 */
	public Path folder() {
		return this.folder;
	}

	static class Hints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
			hints.resources().registerPattern(LOCATION + "/*");
		}

	}

}
