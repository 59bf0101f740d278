package io.worldflow.dashboard;

import io.worldflow.QueueSpec;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The queues page in a real browser, as {@link BrowserTest} drives the run pages: the list with its counts, the way
 * from a waiting run's page to its queue, and setting a queue's limits through the form.
 */
class QueuesBrowserTest {

    @TempDir
    Path dir;

    TestDashboard t;
    WebDriver browser;
    Pages pages;

    @BeforeEach
    void start() {
        t = new TestDashboard(dir, false, QueuesApiTest.SERVED);
        browser = BrowserTest.chromium();
        pages = new Pages(browser);
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        t.close();
    }

    private static By row(String name) {
        return By.cssSelector("#queues tr[data-queue='" + name + "']");
    }

    private static By cell(String name, String field) {
        return By.cssSelector("#queues tr[data-queue='" + name + "'] td[data-field='" + field + "']");
    }

    private void type(String field, String value) {
        WebElement input = browser.findElement(By.cssSelector("#define input[name='" + field + "']"));
        input.clear();
        input.sendKeys(value);
    }

    @Test
    void seeAQueuesCountsFollowAWaitingRunToItsQueueAndLoosenItsLimits() throws IOException {
        QueuesApiTest.fullLedger(t);
        // a queue's name holds no markup characters, but who set its limits may
        try (var as = t.wf.actingAs(BrowserTest.HOSTILE_ID)) {
            t.wf.queues().define(QueueSpec.named("exports").withRateLimit(20, Duration.ofSeconds(1)));
        }
        browser.get(t.dashboard.loginUrl().toString());

        // the runs list links to the queues page
        pages.click(By.cssSelector("header nav a[href='/queues.html']"));
        pages.waiting().until(ExpectedConditions.urlContains("/queues.html"));
        assertThat(pages.text(row("ledger"))).startsWith("ledger");
        pages.awaitText(cell("ledger", "concurrency"), "1");
        pages.awaitText(cell("ledger", "rateLimit"), "none");
        pages.awaitText(cell("ledger", "running"), "1");
        pages.awaitText(cell("ledger", "waiting"), "4");
        pages.awaitText(cell("ledger", "throttled"), "3");
        pages.awaitText(cell("ledger", "changedBy"), "application");
        // each cell sits under the heading of what it shows
        List<String> headings = browser.findElements(By.cssSelector("#queues thead th")).stream()
                .map(th -> th.getAttribute("data-field"))
                .toList();
        List<String> fields = browser.findElements(By.cssSelector("#queues tr[data-queue='ledger'] td")).stream()
                .map(td -> td.getAttribute("data-field"))
                .toList();
        assertThat(fields).hasSameSizeAs(headings);
        assertThat(fields.subList(0, fields.size() - 1)).doesNotContainNull();
        assertThat(headings).isEqualTo(fields);
        assertThat(pages.text(By.cssSelector("#queues tbody"))).contains(BrowserTest.HOSTILE_ID);
        assertThat(browser.findElements(By.cssSelector("#queues img")))
                .as("who set a queue's limits never becomes markup")
                .isEmpty();
        assertThat(browser.getTitle()).isNotEqualTo("pwned");
        pages.screenshot("dashboard-queues.png");

        // a waiting run's page says which queue it waits in, and links to it
        browser.get(t.dashboard.url() + "/run.html?id=w2");
        pages.waiting().until(ExpectedConditions.textToBe(By.id("status"), "PENDING"));
        assertThat(pages.text(By.cssSelector("#waits li[data-wait='queue']")))
                .isEqualTo("admission by queue ledger (at most 1 at once; 1 running, 4 waiting)");
        pages.screenshot("dashboard-queued-run.png");
        pages.click(By.cssSelector("#waits a[data-rel='queue']"));
        pages.waiting().until(ExpectedConditions.urlContains("/queues.html?name=ledger"));
        pages.waiting()
                .until(ExpectedConditions.presenceOfElementLocated(
                        By.cssSelector("#queues tr.selected[data-queue='ledger']")));

        // the form, filled from the row, sets looser limits, which admit the waiting runs
        pages.click(By.cssSelector("#queues tr[data-queue='ledger'] button[data-action='edit']"));
        assertThat(browser.findElement(By.cssSelector("#define input[name='name']"))
                        .getAttribute("value"))
                .isEqualTo("ledger");
        type("concurrency", "3");
        pages.click(By.cssSelector("#define button[type='submit']"));
        pages.awaitText(By.id("action-result"), "Queue ledger: limits saved.");
        assertThat(t.wf.queues().describe("ledger").orElseThrow().spec().concurrency())
                .isEqualTo(3);
        pages.awaitText(cell("ledger", "changedBy"), "dashboard:admin");
        t.awaitRun("w2", r -> r.status() == RunStatus.WAITING);
        pages.awaitText(cell("ledger", "concurrency"), "3");
        pages.awaitText(cell("ledger", "running"), "3");
        pages.awaitText(cell("ledger", "waiting"), "2");
        pages.awaitText(cell("ledger", "throttled"), "1");

        // admitted, the run waits in no queue any more
        browser.get(t.dashboard.url() + "/run.html?id=w2");
        pages.waiting().until(ExpectedConditions.textToBe(By.id("status"), "WAITING"));
        assertThat(browser.findElements(By.cssSelector("#waits li[data-wait='queue']")))
                .isEmpty();

        // one started with an ordering key, while every place is taken, says which key it waits its turn with
        t.wf.start(
                "approval",
                "keyed",
                StartOptions.queue("ledger").withId("keyed").withKey("customer-7"));
        browser.get(t.dashboard.url() + "/run.html?id=keyed");
        pages.waiting().until(ExpectedConditions.textToBe(By.id("status"), "PENDING"));
        assertThat(pages.text(By.cssSelector("#waits li[data-wait='queue']")))
                .startsWith("admission by queue ledger after the earlier runs of key customer-7 (at most 3 at once;");
    }

    @Test
    void withPublicReadsAVisitorSeesTheQueuesAndSettingLimitsAsksForTheToken(@TempDir Path other) {
        try (TestDashboard open = new TestDashboard(other, true, QueuesApiTest.SERVED)) {
            open.wf.queues().define(QueueSpec.named("ledger").withConcurrency(1));
            browser.get(open.dashboard.url() + "/queues.html");
            pages.awaitText(By.cssSelector("#queues tr[data-queue='ledger'] td[data-field='concurrency']"), "1");

            pages.click(By.cssSelector("#queues tr[data-queue='ledger'] button[data-action='edit']"));
            WebElement concurrency = browser.findElement(By.cssSelector("#define input[name='concurrency']"));
            concurrency.clear();
            concurrency.sendKeys("50");
            pages.click(By.cssSelector("#define button[type='submit']"));

            pages.waiting().until(ExpectedConditions.urlContains("/login.html"));
            assertThat(open.wf.queues().describe("ledger").orElseThrow().spec().concurrency())
                    .isEqualTo(1);
        }
    }
}
