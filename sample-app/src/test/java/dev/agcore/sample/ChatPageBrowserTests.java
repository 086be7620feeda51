package dev.agcore.sample;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chat page in headless Debian Chromium, against the sample app in demo mode: a
 * question answered with a tool, an order cancellation approved on the page after a reload, and the
 * conversation read back from the store after a reload; a plan with its steps' tool calls. Skipped when Chromium or
 * chromedriver is missing, failed on CI. On failure the page is saved as
 * {@code target/chat-page-failure.png}; run with {@code -Dchat-page.screenshot=true} to
 * save the README's screenshot as {@code docs/images/chat-page.png}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "agent.web.ui.enabled=true")
class ChatPageBrowserTests {

	private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

	private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	@LocalServerPort
	private int port;

	@TempDir
	private Path profile;

	private ChromeDriver driver;

	private WebDriverWait wait;

	@BeforeAll
	static void chromiumIsInstalled() {
		if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
			String message = "Chromium or chromedriver is missing (" + CHROMIUM + ", " + CHROMEDRIVER
					+ "); install them with: apt-get install chromium chromium-driver";
			if ("true".equalsIgnoreCase(System.getenv("CI"))) {
				Assertions.fail(message + "; on CI they must be installed");
			}
			Assumptions.abort(message);
		}
	}

	@BeforeEach
	void startChromium() {
		// the Debian chromedriver, so that Selenium Manager never looks for one online
		System.setProperty(ChromeDriverService.CHROME_DRIVER_EXE_PROPERTY, CHROMEDRIVER.toString());
		ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
			.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
					"--disable-background-networking", "--disable-component-update", "--disable-sync",
					"--no-first-run", "--user-data-dir=" + this.profile, "--window-size=1280,860");
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
			.usingAnyFreePort()
			.build();
		this.driver = new ChromeDriver(service, options);
		this.wait = new WebDriverWait(this.driver, TIMEOUT);
	}

	@AfterEach
	void stopChromium() {
		if (this.driver != null) {
			this.driver.quit();
		}
	}

	@Test
	void chatsApprovesAToolCallAfterAReloadAndReadsTheConversationBack() throws IOException {
		try {
			this.driver.get("http://localhost:" + this.port + "/agents/ui");
			this.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("agent"), "assistant"));

			send("What is the weather in Paris?");
			WebElement weather = inLastTurn(".tool[data-tool='get_weather']");
			this.wait.until(ExpectedConditions.textToBePresentInElement(weather.findElement(By.className("status")),
					"done"));
			assertThat(weather.getText()).contains("{\"city\":\"Paris\"}").contains("Paris:");
			this.wait.until((page) -> lastTurn().findElement(By.className("meta")).getText().startsWith("completed"));
			assertThat(lastTurn().findElement(By.className("markdown")).getText())
				.startsWith("Here is what I found: Paris:");
			assertThat(lastTurn().findElement(By.className("meta")).getText()).matches(
					"completed · \\d+ in / \\d+ out tokens · \\d+\\.\\d s");

			send("Please cancel order A-1002");
			WebElement approval = this.wait.until(ExpectedConditions
				.visibilityOfElementLocated(By.cssSelector(".approval[data-tool='cancel_order']")));
			assertThat(approval.getText()).contains("Cancelling an order cannot be undone");
			WebElement cancel = inLastTurn(".tool[data-tool='cancel_order']");
			assertThat(cancel.getText()).contains("awaiting approval").contains("{\"orderId\":\"A-1002\"}");
			assertThat(approval.findElements(By.tagName("button"))).extracting(WebElement::getText)
				.containsExactly("Approve", "Edit arguments", "Reject");
			saveReadmeScreenshot();

			// the paused turn is kept apart from the conversation: a reload shows it and asks again
			this.driver.navigate().refresh();
			approval = this.wait.until(ExpectedConditions
				.visibilityOfElementLocated(By.cssSelector(".approval[data-tool='cancel_order']")));
			assertThat(this.driver.findElements(By.cssSelector("#transcript .turn"))).hasSize(2);
			assertThat(lastTurn().getText()).contains("Please cancel order A-1002");
			WebElement reloaded = inLastTurn(".tool[data-tool='cancel_order']");
			assertThat(reloaded.getText()).contains("awaiting approval").contains("{\"orderId\":\"A-1002\"}");
			approval.findElement(By.xpath(".//button[text()='Approve']")).click();
			this.wait.until(ExpectedConditions.textToBePresentInElement(reloaded.findElement(By.className("status")),
					"done"));
			this.wait.until((page) -> lastTurn().findElement(By.className("meta")).getText().startsWith("completed"));
			assertThat(lastTurn().findElement(By.className("markdown")).getText()).contains("A-1002");
			assertThat(this.driver.findElements(By.cssSelector("#sessions .session-title")))
				.extracting(WebElement::getText)
				.contains("What is the weather in Paris?");
			assertThat(inLastTurn(".decision").getText()).isEqualTo("Approved: cancel_order");

			this.driver.navigate().refresh();
			this.wait.until((page) -> page.findElements(By.cssSelector("#transcript .turn")).size() == 2);
			List<WebElement> turns = this.driver.findElements(By.cssSelector("#transcript .turn"));
			assertThat(turns.get(0).getText()).contains("What is the weather in Paris?")
				.contains("get_weather")
				.contains("Here is what I found: Paris:");
			assertThat(turns.get(1).getText()).contains("Please cancel order A-1002")
				.contains("cancel_order")
				.contains("A-1002");
			if (Boolean.getBoolean("chat-page.screenshot")) {
				screenshot(Path.of("target", "chat-page-reloaded.png"));
			}
		}
		catch (AssertionError | RuntimeException ex) {
			screenshot(Path.of("target", "chat-page-failure.png"));
			throw ex;
		}
	}

	@Test
	void showsAPlanWithTheToolCallsOfEachStepNestedUnderIt() throws IOException {
		try {
			this.driver.get("http://localhost:" + this.port + "/agents/ui");
			this.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("agent"), "planner"));
			new Select(this.driver.findElement(By.id("agent"))).selectByValue("planner");
			send("Where is order A-1001 and what is the weather in Paris?");
			this.wait.until((page) -> lastTurn().findElement(By.className("meta")).getText().startsWith("completed"));
			List<WebElement> steps = lastTurn().findElements(By.cssSelector(".plan .step"));
			assertThat(steps).hasSize(2);
			assertThat(steps).extracting((step) -> step.getDomAttribute("data-status"))
				.containsExactly("completed", "completed");
			assertThat(steps.get(0).findElement(By.cssSelector(".tool")).getDomAttribute("data-tool"))
				.isEqualTo("get_order_status");
			assertThat(steps.get(1).findElement(By.cssSelector(".tool")).getDomAttribute("data-tool"))
				.isEqualTo("get_weather");
		}
		catch (AssertionError | RuntimeException ex) {
			screenshot(Path.of("target", "chat-page-plan-failure.png"));
			throw ex;
		}
	}

	private void send(String message) {
		WebElement box = this.driver.findElement(By.id("message"));
		this.wait.until(ExpectedConditions.elementToBeClickable(By.id("send")));
		box.sendKeys(message, Keys.ENTER);
		this.wait.until((page) -> lastTurn().getText().contains(message));
	}

	private WebElement inLastTurn(String selector) {
		return this.wait.until((page) -> lastTurn().findElements(By.cssSelector(selector))
			.stream()
			.findFirst()
			.orElse(null));
	}

	private WebElement lastTurn() {
		List<WebElement> turns = this.driver.findElements(By.cssSelector("#transcript .turn"));
		return turns.get(turns.size() - 1);
	}

	private void saveReadmeScreenshot() throws IOException {
		if (Boolean.getBoolean("chat-page.screenshot")) {
			this.driver.manage().window().setSize(new Dimension(1280, 1000));
			screenshot(Path.of("..", "docs", "images", "chat-page.png"));
			this.driver.manage().window().setSize(new Dimension(390, 844));
			screenshot(Path.of("target", "chat-page-narrow.png"));
			this.driver.findElement(By.id("toggle-sessions")).click();
			screenshot(Path.of("target", "chat-page-narrow-sessions.png"));
			this.driver.findElement(By.id("close-sessions")).click();
			this.driver.manage().window().setSize(new Dimension(1280, 860));
		}
	}

	private void screenshot(Path path) throws IOException {
		File shot = this.driver.getScreenshotAs(OutputType.FILE);
		Files.createDirectories(path.toAbsolutePath().getParent());
		Files.copy(shot.toPath(), path, StandardCopyOption.REPLACE_EXISTING);
	}

}
