package dev.agcore.benchmarks.chatpage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import dev.agcore.benchmarks.LoadAverage;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * How long the chat page takes, in headless Chromium, to show the first token of an
 * answer after the user pressed Enter, and to become usable after it was opened (issue
 * 15). The application is the starter with the page on and one agent on a
 * {@link PacedAnswerModel} whose first chunk comes after a known delay (none by default),
 * so the figures are the framework's and the page's own. A script injected before the
 * page's own ({@code chat-page-marks.js}) takes the times on the page's clock; the page
 * itself is not changed. See docs/performance.md, "Chat page: time to first token".
 *
 * <pre>
 * apt-get install -y chromium chromium-driver
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar dev.agcore.benchmarks.chatpage.ChatPageLatency
 * </pre>
 */
public final class ChatPageLatency {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final Duration POLL = Duration.ofMillis(20);

	private ChatPageLatency() {
	}

	public static void main(String[] args) throws IOException {
		ChatPageOptions options;
		try {
			options = ChatPageOptions.parse(args);
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.err.print(ChatPageOptions.USAGE);
			System.exit(2);
			return;
		}
		String missing = missing(options);
		if (missing != null) {
			System.err.println(missing);
			System.exit(2);
			return;
		}
		String loadBefore = LoadAverage.read();
		ChatPageReport report = run(options, System.err::println);
		System.out.println(report.header(loadBefore, LoadAverage.read()));
		System.out.println(report.table());
		// the application and the browser are closed; Reactor's timer threads are not daemons
		System.exit(0);
	}

	/**
	 * Say what is missing to run the browser, if anything.
	 * @param options the options naming the executables
	 * @return what to install, or null when both executables are there
	 */
	static String missing(ChatPageOptions options) {
		if (Files.isExecutable(options.chromium()) && Files.isExecutable(options.chromedriver())) {
			return null;
		}
		return "Chromium or chromedriver is missing (" + options.chromium() + ", " + options.chromedriver()
				+ "); install them with: apt-get install chromium chromium-driver";
	}

	/**
	 * Start the application and Chromium, time the page loads and then the sends, and
	 * stop both.
	 * @param options the options
	 * @param progress told what is being done
	 * @return the timings
	 * @throws IOException if Chromium's profile folder cannot be made
	 */
	static ChatPageReport run(ChatPageOptions options, Consumer<String> progress) throws IOException {
		String marks = resource("chat-page-marks.js");
		Path profile = Files.createTempDirectory("agcore-chat-page-");
		progress.accept("starting the application");
		try (ConfigurableApplicationContext application = start(options)) {
			String page = "http://127.0.0.1:" + application.getEnvironment().getProperty("local.server.port")
					+ "/agents/ui/";
			progress.accept("starting Chromium");
			ChromeDriver driver = chromium(options, profile);
			try {
				driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", marks));
				List<ChatPageReport.Load> loads = new ArrayList<>();
				for (int i = 0; i < options.loads(); i++) {
					progress.accept("page load " + (i + 1) + " of " + options.loads());
					loads.add(load(driver, page));
				}
				ServerTimes server = application.getBean(ServerTimes.class);
				progress.accept(options.warmupSends() + " sends to warm the server up, not timed");
				for (int i = 0; i < options.warmupSends(); i++) {
					send(driver, i, server);
				}
				List<ChatPageReport.Send> sends = new ArrayList<>();
				for (int i = 0; i < options.sends(); i++) {
					ChatPageReport.Send send = send(driver, options.warmupSends() + i, server);
					sends.add(send);
					progress.accept("send " + (i + 1) + " of " + options.sends() + ": " + send.summary());
				}
				return new ChatPageReport(options, driver.getCapabilities().getBrowserVersion(), loads, sends);
			}
			finally {
				driver.quit();
			}
		}
		finally {
			deleteRecursively(profile);
		}
	}

	private static ConfigurableApplicationContext start(ChatPageOptions options) {
		return new SpringApplicationBuilder(ChatPageApplication.class).web(WebApplicationType.REACTIVE)
			.properties("server.address=127.0.0.1", "server.port=0", "spring.main.banner-mode=off",
					"agent.web.enabled=true", "agent.web.ui.enabled=true",
					"agent.agents." + ChatPageApplication.AGENT + ".model=pacedAnswerModel",
					"agent.agents." + ChatPageApplication.AGENT + ".system-prompt=You answer coffee questions.",
					"bench.first-chunk-delay=" + options.firstChunkDelay().toMillis() + "ms",
					"bench.chunk-interval=" + options.chunkInterval().toMillis() + "ms",
					"bench.chunks=" + options.chunks())
			.run();
	}

	private static ChromeDriver chromium(ChatPageOptions options, Path profile) {
		// the Debian chromedriver, so that Selenium Manager never looks for one online
		System.setProperty(ChromeDriverService.CHROME_DRIVER_EXE_PROPERTY, options.chromedriver().toString());
		ChromeOptions chrome = new ChromeOptions().setBinary(options.chromium().toFile())
			.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
					"--disable-background-networking", "--disable-component-update", "--disable-sync",
					"--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=1280,860");
		ChromeDriverService service = new ChromeDriverService.Builder()
			.usingDriverExecutable(options.chromedriver().toFile())
			.usingAnyFreePort()
			.build();
		return new ChromeDriver(service, chrome);
	}

	// a new navigation each time, so that the page starts from nothing but the browser's cache
	private static ChatPageReport.Load load(ChromeDriver driver, String page) {
		driver.get("about:blank");
		driver.get(page);
		WebDriverWait wait = new WebDriverWait(driver, TIMEOUT, POLL);
		wait.until((browser) -> Boolean.TRUE.equals(script(driver,
				"return window.__agcoreMarks.interactive !== null && document.readyState === 'complete'"
						+ " && performance.getEntriesByType('navigation')[0].loadEventEnd > 0")));
		Map<String, Object> times = map(script(driver, """
				const navigation = performance.getEntriesByType('navigation')[0];
				const paint = performance.getEntriesByName('first-contentful-paint')[0];
				return { firstByte: navigation.responseStart, firstPaint: paint ? paint.startTime : -1,
					domContentLoaded: navigation.domContentLoadedEventEnd, loaded: navigation.loadEventEnd,
					interactive: window.__agcoreMarks.interactive };
				"""));
		return new ChatPageReport.Load(number(times, "firstByte"), number(times, "firstPaint"),
				number(times, "domContentLoaded"), number(times, "loaded"), number(times, "interactive"));
	}

	private static ChatPageReport.Send send(ChromeDriver driver, int index, ServerTimes server) {
		WebDriverWait wait = new WebDriverWait(driver, TIMEOUT, POLL);
		wait.until(ExpectedConditions.elementToBeClickable(By.id("send")));
		WebElement box = driver.findElement(By.id("message"));
		box.sendKeys("How fine should I grind, question " + (index + 1) + "?");
		// as a person types, then presses Enter: the key events of the text are handled by then,
		// so Enter's time is not spent waiting behind them
		settle(driver);
		box.sendKeys(Keys.ENTER);
		wait.until((browser) -> {
			List<WebElement> turns = browser.findElements(By.cssSelector("#transcript .turn"));
			return turns.size() > index
					&& turns.get(turns.size() - 1).findElement(By.className("meta")).getText().startsWith("completed");
		});
		// Element Timing reports a paint a little after it happened
		wait.until((browser) -> Boolean.TRUE.equals(script(driver,
				"const send = window.__agcoreMarks.sends[arguments[0]]; return send !== undefined && send.frame !== null"
						+ " && (send.painted !== null || performance.now() - send.frame > 200)",
				index)));
		Map<String, Object> times = map(script(driver, """
				const send = window.__agcoreMarks.sends[arguments[0]];
				const streams = performance.getEntriesByType('resource')
					.filter((entry) => entry.initiatorType === 'fetch' && entry.name.endsWith('/stream'));
				const stream = streams[streams.length - 1];
				return { pressed: send.pressed, received: send.received, fetched: send.fetched,
					requested: stream.startTime, responded: stream.responseStart,
					shown: send.shown, dom: send.dom, frame: send.frame,
					painted: send.painted === null ? -1 : send.painted, ended: stream.responseEnd };
				""", index));
		return new ChatPageReport.Send(number(times, "pressed"), number(times, "received"), number(times, "fetched"),
				number(times, "requested"), number(times, "responded"), number(times, "shown"), number(times, "dom"),
				number(times, "frame"), number(times, "painted"), number(times, "ended"), server.latest());
	}

	// two animation frames and a task: whatever the typing queued has run and been rendered
	private static void settle(ChromeDriver driver) {
		((JavascriptExecutor) driver).executeAsyncScript("""
				const done = arguments[arguments.length - 1];
				requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50)));
				""");
	}

	private static Object script(ChromeDriver driver, String script, Object... arguments) {
		return ((JavascriptExecutor) driver).executeScript(script, arguments);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> map(Object value) {
		if (!(value instanceof Map)) {
			throw new IllegalStateException("The page answered " + value + " instead of its timings");
		}
		return (Map<String, Object>) value;
	}

	private static double number(Map<String, Object> times, String name) {
		if (!(times.get(name) instanceof Number number)) {
			throw new IllegalStateException("The page has no time '" + name + "': " + times);
		}
		return number.doubleValue();
	}

	private static String resource(String name) {
		try (InputStream in = ChatPageLatency.class.getResourceAsStream(name)) {
			if (in == null) {
				throw new IllegalStateException("Missing resource " + name);
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void deleteRecursively(Path folder) throws IOException {
		try (var paths = Files.walk(folder)) {
			for (Path path : paths.sorted((a, b) -> b.compareTo(a)).toList()) {
				Files.deleteIfExists(path);
			}
		}
	}

}
