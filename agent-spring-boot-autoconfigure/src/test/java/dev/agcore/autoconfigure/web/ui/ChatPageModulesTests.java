package dev.agcore.autoconfigure.web.ui;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page preloads exactly the modules {@code app.js} imports, directly or not: one
 * missing is fetched only once its importer has been (a round trip later), one left over
 * is fetched for nothing.
 */
class ChatPageModulesTests {

	private static final String ASSETS = "/dev/agcore/autoconfigure/web/ui/assets/";

	private static final Pattern IMPORT = Pattern.compile("^import\\s[^'\"]*from\\s+'(\\./[^']+)';", Pattern.MULTILINE);

	private static final Pattern PRELOAD = Pattern.compile("<link rel=\"modulepreload\" href=\"([^\"]+)\">");

	@Test
	void preloadsEveryModuleAppJsImportsAndNoOther() throws IOException {
		assertThat(preloaded()).isEqualTo(imported("app.js"));
	}

	private static Set<String> preloaded() throws IOException {
		Set<String> preloads = new TreeSet<>();
		Matcher preload = PRELOAD.matcher(text("index.html"));
		while (preload.find()) {
			preloads.add(preload.group(1));
		}
		return preloads;
	}

	// the modules reachable from one, by their paths relative to the page; the WebJar
	// modules under vendor/ are read as their own, which import nothing relative
	private static Set<String> imported(String start) throws IOException {
		Set<String> modules = new TreeSet<>();
		Deque<String> pending = new ArrayDeque<>();
		pending.add(start);
		while (!pending.isEmpty()) {
			String module = pending.remove();
			if (module.startsWith("vendor/")) {
				continue;
			}
			Matcher imports = IMPORT.matcher(text(module));
			while (imports.find()) {
				String path = URI.create(module).resolve(imports.group(1)).toString();
				if (modules.add(path)) {
					pending.add(path);
				}
			}
		}
		return modules;
	}

	private static String text(String asset) throws IOException {
		try (InputStream in = ChatPageModulesTests.class.getResourceAsStream(ASSETS + asset)) {
			assertThat(in).as(asset).isNotNull();
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

}
