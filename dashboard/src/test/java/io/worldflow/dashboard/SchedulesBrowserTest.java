package io.worldflow.dashboard;

import io.worldflow.RunStatus;
import io.worldflow.ScheduleSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The schedules page in a real browser, as {@link BrowserTest} drives the run pages: the list, its buttons, the link
 * to the last run, and the run page's way back to the schedule that started it.
 */
class SchedulesBrowserTest {

    @TempDir
    Path dir;

    TestDashboard t;
    WebDriver browser;

    @BeforeEach
    void start() {
        t = new TestDashboard(dir, false);
        browser = BrowserTest.chromium();
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        t.close();
    }

    private WebDriverWait waiting() {
        return new WebDriverWait(browser, Duration.ofSeconds(20));
    }

    private void screenshot(String name) throws IOException {
        Path target = Path.of("target", name);
        Files.createDirectories(target.getParent());
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
        assertThat(Files.size(target)).as("screenshot %s", target).isGreaterThan(1000);
    }

    /** The element's text once it is there, looked up again if the page replaced it meanwhile. */
    private String text(By by) {
        return waiting()
                .ignoring(StaleElementReferenceException.class)
                .until(d ->
                        d.findElements(by).isEmpty() ? null : d.findElement(by).getText());
    }

    /** Clicks the element, looked up again if the page replaced it meanwhile. */
    private void click(By by) {
        waiting().ignoring(StaleElementReferenceException.class).until(d -> {
            d.findElement(by).click();
            return true;
        });
    }

    private static By row(String id) {
        return By.cssSelector("#schedules tr[data-schedule-id='" + id + "']");
    }

    private static By button(String id, String action) {
        return By.cssSelector("#schedules tr[data-schedule-id='" + id + "'] button[data-action='" + action + "']");
    }

    /** Waits until the button is enabled, or disabled, as asked (the page re-renders after each action). */
    private void awaitEnabled(By by, boolean enabled) {
        waiting()
                .ignoring(StaleElementReferenceException.class)
                .until(d -> d.findElement(by).isEnabled() == enabled);
    }

    @Test
    void listPauseResumeAndTriggerASchedulesAndFollowItsRunBackToIt() throws IOException {
        t.wf.schedules().create(ScheduleSpec.cron("nightly", SchedulesApiTest.YEARLY, "approval", "scheduled"));
        t.wf.schedules().create(ScheduleSpec.cron(BrowserTest.HOSTILE_ID, SchedulesApiTest.YEARLY, "approval", "x"));
        browser.get(t.dashboard.loginUrl().toString());

        // the runs list links to the schedules page
        click(By.cssSelector("header nav a[href='/schedules.html']"));
        waiting().until(ExpectedConditions.urlContains("/schedules.html"));
        assertThat(text(row("nightly")))
                .contains("approval")
                .contains("cron 0 0 3 1 1 ? (UTC)")
                .contains("ACTIVE")
                .contains("none yet");
        assertThat(text(By.cssSelector("#schedules tbody"))).contains(BrowserTest.HOSTILE_ID);
        assertThat(browser.findElements(By.cssSelector("#schedules img")))
                .as("a schedule id never becomes markup")
                .isEmpty();
        assertThat(browser.getTitle()).isNotEqualTo("pwned");
        awaitEnabled(button("nightly", "pause"), true);
        awaitEnabled(button("nightly", "resume"), false);

        click(button("nightly", "pause"));
        waiting().until(d -> text(row("nightly")).contains("PAUSED"));
        assertThat(t.wf.schedules().describe("nightly").paused()).isTrue();
        awaitEnabled(button("nightly", "pause"), false);
        click(button("nightly", "resume"));
        waiting().until(d -> text(row("nightly")).contains("ACTIVE"));
        assertThat(t.wf.schedules().describe("nightly").paused()).isFalse();

        click(button("nightly", "trigger"));
        assertThat(text(By.cssSelector("#action-result a"))).startsWith("nightly@");
        String runId = t.wf.schedules().describe("nightly").lastRunId();
        assertThat(text(By.cssSelector("#schedules tr[data-schedule-id='nightly'] a[data-rel='last-run']")))
                .isEqualTo(runId);
        t.awaitRun(runId, r -> r.status() == RunStatus.WAITING);
        screenshot("dashboard-schedules.png");

        // the run page names the schedule and the fire time, and links back to the schedule
        click(By.cssSelector("#schedules tr[data-schedule-id='nightly'] a[data-rel='last-run']"));
        waiting().until(ExpectedConditions.textToBe(By.id("run-id"), runId));
        waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("scheduled")));
        assertThat(text(By.id("scheduled"))).startsWith("started by schedule nightly for fire time ");
        assertThat(browser.findElement(By.id("scheduled-for")).getAttribute("title"))
                .isEqualTo(runId.substring("nightly@".length()));
        assertThat(text(By.cssSelector("#events tr[data-type='WorkflowStarted'] a[data-rel='schedule']")))
                .isEqualTo("nightly");
        screenshot("dashboard-scheduled-run.png");
        click(By.id("schedule-link"));
        waiting().until(ExpectedConditions.urlContains("/schedules.html?id=nightly"));
        waiting()
                .until(ExpectedConditions.presenceOfElementLocated(
                        By.cssSelector("#schedules tr.selected[data-schedule-id='nightly']")));

        // a run no schedule started says nothing of schedules
        t.waitingRun("by-hand");
        browser.get(t.dashboard.url() + "/run.html?id=by-hand");
        waiting().until(ExpectedConditions.textToBe(By.id("status"), "WAITING"));
        assertThat(browser.findElement(By.id("scheduled")).isDisplayed()).isFalse();
    }

    @Test
    void withPublicReadsAVisitorSeesTheSchedulesAndAnActionAsksForTheTokenAsOnARunsPage(@TempDir Path other) {
        try (TestDashboard open = new TestDashboard(other, true)) {
            open.wf.schedules().create(ScheduleSpec.cron("nightly", SchedulesApiTest.YEARLY, "approval", "x"));
            browser.get(open.dashboard.url() + "/schedules.html");
            assertThat(text(row("nightly"))).contains("ACTIVE");

            click(button("nightly", "trigger"));

            waiting().until(ExpectedConditions.urlContains("/login.html"));
            assertThat(open.wf.schedules().describe("nightly").lastRunId()).isNull();
            WebElement token = browser.findElement(By.id("token"));
            assertThat(token.isDisplayed()).isTrue();
        }
    }
}
