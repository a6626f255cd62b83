package dev.redsim.queue.jq;

import dev.redsim.conformance.target.SharedTargets;
import dev.redsim.queue.jq.client.JobFailedException;
import dev.redsim.queue.jq.client.JqPusher;
import dev.redsim.queue.jq.client.JqWorker;
import dev.redsim.queue.jq.master.JqMaster;
import org.junit.jupiter.api.Test;
import org.msgpack.value.ValueFactory;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.opentest4j.TestAbortedException;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The web page in headless Chromium: jobs pushed and run through the API must show in its tables. Skipped
 * locally without chromium and chromedriver; required (fails) when CI=true. Saves target/jq-ui.png; with
 * -Dredsim.jq.updateScreenshot=true also docs/jq-ui.png (pixels differ run to run, so docs change only on demand).
 */
class JqWebUiTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    @Test
    void thePageShowsQueuesCountsJobsFailuresAndConstraints() throws Exception {
        requireChromium();
        try (JqMaster master = JqMasterTest.startOn(SharedTargets.simulator())) {
            JqPusher pusher = new JqPusher(master.uri());
            pusher.putConstraint("resize-t1", Msgpack.map("matcher", Msgpack.map("name", "resize",
                    "argument", Msgpack.map("tenant", "t1")), "rate", Msgpack.map("limit", 100, "window_ms", 60_000),
                    "concurrency", 4));
            for (int i = 0; i < 5; i++) {
                pusher.enqueue(JqPusher.job("resize", Msgpack.map("tenant", "t1", "n", i)).priority(i % 2));
            }
            for (int i = 0; i < 2; i++) {
                pusher.enqueue(JqPusher.job("mail", ValueFactory.newString("to" + i)));
            }
            JqWorker worker = new JqWorker(master.uri(), "ui-worker", (name, argument) -> {
                if (name.equals("mail")) {
                    throw new JobFailedException("smtp refused", false, ValueFactory.newInteger(550));
                }
                return ValueFactory.newString("ok");
            });
            for (int i = 0; i < 5; i++) {
                assertThat(worker.runOnce(0)).isTrue();
            }
            pusher.enqueue(JqPusher.job("report", ValueFactory.newNil()).priority(9));
            WebDriver driver = chrome();
            try {
                driver.get(master.uri().toString());
                WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(20));
                wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("totals"), "total"));
                List<String> totals = driver.findElements(By.cssSelector("#totals td")).stream()
                        .map(e -> e.getText()).toList();
                // By priority, then enqueue order: the three resize jobs of priority 0, then both mails (priority
                // 0, failing for good); the two resize jobs of priority 1 and the report job wait.
                // Columns: queued, delayed, running, succeeded, failed.
                assertThat(totals).containsExactly("total", "3", "0", "0", "3", "2");
                wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#jobs tbody tr"), 3));
                assertThat(driver.findElement(By.id("constraints")).getText()).contains("resize-t1", "100 / 60000 ms");
                for (int i = 0; i < 2; i++) {
                    assertThat(worker.runOnce(0)).isTrue();
                }
                driver.findElement(By.id("tab-failed")).click();
                wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#jobs tbody tr"), 2));
                wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("tab-succeeded"), "(5)"));
                wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("failures"), "smtp refused"));
                assertThat(driver.findElement(By.id("queues")).getText()).contains("mail", "report", "resize");
                saveScreenshot(((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE));
            } finally {
                driver.quit();
            }
        }
    }

    private static void saveScreenshot(File shot) throws Exception {
        Path module = Path.of("").toAbsolutePath();
        Files.createDirectories(module.resolve("target"));
        Files.copy(shot.toPath(), module.resolve("target/jq-ui.png"), StandardCopyOption.REPLACE_EXISTING);
        if (Boolean.getBoolean("redsim.jq.updateScreenshot")) {
            Files.copy(shot.toPath(), module.getParent().resolve("docs/jq-ui.png"), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void requireChromium() {
        if (Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER)) {
            return;
        }
        String message = "chromium and chromedriver (/usr/bin) are needed for the web UI test";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new IllegalStateException(message + " (required here: CI=true)");
        }
        throw new TestAbortedException(message);
    }

    /** Local binaries only, so Selenium Manager never goes online; a fresh profile every run. */
    private static WebDriver chrome() throws Exception {
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
        Path profile = Files.createTempDirectory("jq-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--window-size=1100,1000", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .build();
        return new ChromeDriver(service, options);
    }
}
