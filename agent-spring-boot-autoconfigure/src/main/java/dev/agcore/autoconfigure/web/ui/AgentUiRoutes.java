package dev.agcore.autoconfigure.web.ui;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

import dev.agcore.autoconfigure.AgentConfigurationException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * The chat page's routes: the page and its modules from this jar's
 * {@value #ASSETS} folder, and the two WebJar files it imports under {@code vendor/}.
 * Only those two files of the WebJars are served, found through the WebJars' own
 * {@code pom.properties} rather than a WebJars locator.
 */
final class AgentUiRoutes {

	static final String ASSETS = "dev/agcore/autoconfigure/web/ui/assets/";

	static final MediaType JAVASCRIPT = MediaType.parseMediaType("text/javascript;charset=UTF-8");

	/**
	 * What the page may load and run: only its own scripts, styles and API. The Markdown
	 * of model output is sanitized before it is shown; this is the second line.
	 */
	static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
			+ "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; "
			+ "form-action 'self'; frame-ancestors 'none'";

	private AgentUiRoutes() {
	}

	/**
	 * The page's routes under {@code basePath/ui}.
	 * @param basePath the agent endpoint's base path ({@code agent.web.base-path})
	 * @param classLoader where the assets and WebJars are
	 * @return the routes
	 */
	static RouterFunction<ServerResponse> create(String basePath, ClassLoader classLoader) {
		String ui = stripTrailingSlashes(basePath.strip()) + "/ui";
		Resource marked = webJarFile("marked", "lib/marked.esm.js", classLoader);
		Resource purify = webJarFile("dompurify", "dist/purify.es.mjs", classLoader);
		Resource index = new ClassPathResource(ASSETS + "index.html", classLoader);
		return RouterFunctions.route()
			// the page's relative imports need the trailing slash
			.GET(ui, (request) -> ServerResponse.status(302).location(URI.create(ui + "/")).build())
			.GET(ui + "/", (request) -> ServerResponse.ok()
				.contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
				.header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
				.header("Referrer-Policy", "no-referrer")
				.bodyValue(index))
			.GET(ui + "/vendor/marked.esm.js", (request) -> script(marked))
			.GET(ui + "/vendor/purify.es.mjs", (request) -> script(purify))
			.add(RouterFunctions.resources(ui + "/**", new ClassPathResource(ASSETS, classLoader)))
			.filter(AgentUiRoutes::headers)
			.build();
	}

	private static Mono<ServerResponse> script(Resource resource) {
		return ServerResponse.ok().contentType(JAVASCRIPT).bodyValue(resource);
	}

	// a developer tool that changes with the jar: always revalidate, never sniff
	private static Mono<ServerResponse> headers(ServerRequest request, HandlerFunction<ServerResponse> next) {
		HttpHeaders headers = request.exchange().getResponse().getHeaders();
		headers.setCacheControl(CacheControl.noCache());
		headers.set("X-Content-Type-Options", "nosniff");
		return next.handle(request);
	}

	/**
	 * A file of a WebJar, in the version on the classpath.
	 * @param artifactId the WebJar's artifact id under {@code org.webjars.npm}
	 * @param path the file's path in the npm package
	 * @param classLoader where to look
	 * @return the file
	 */
	static Resource webJarFile(String artifactId, String path, ClassLoader classLoader) {
		String version = webJarVersion(artifactId, classLoader);
		Resource file = (version != null)
				? new ClassPathResource("META-INF/resources/webjars/" + artifactId + "/" + version + "/" + path,
						classLoader)
				: null;
		if (file == null || !file.exists()) {
			throw new AgentConfigurationException(
					"agent.web.ui.enabled=true, but the chat page's WebJar org.webjars.npm:" + artifactId
							+ ((version != null) ? " " + version + " has no " + path : " is not on the classpath"),
					"Depend on agent-spring-boot-starter, which brings org.webjars.npm:marked and "
							+ "org.webjars.npm:dompurify, or add them yourself; or set agent.web.ui.enabled=false.");
		}
		return file;
	}

	private static @Nullable String webJarVersion(String artifactId, ClassLoader classLoader) {
		ClassPathResource properties = new ClassPathResource(
				"META-INF/maven/org.webjars.npm/" + artifactId + "/pom.properties", classLoader);
		if (!properties.exists()) {
			return null;
		}
		try (InputStream in = properties.getInputStream()) {
			Properties read = new Properties();
			read.load(in);
			return read.getProperty("version");
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read " + properties, ex);
		}
	}

	private static String stripTrailingSlashes(String path) {
		String stripped = path;
		while (stripped.endsWith("/")) {
			stripped = stripped.substring(0, stripped.length() - 1);
		}
		return stripped;
	}

}
