package io.worldflow.dashboard;

import io.worldflow.RunStatus;
import io.worldflow.ScheduleSpec;
import io.worldflow.StartOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

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
    Pages pages;

    @BeforeEach
    void start() {
        t = new TestDashboard(dir, false);
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

    private static By row(String id) {
        return By.cssSelector("#schedules tr[data-schedule-id='" + id + "']");
    }

    private static By button(String id, String action) {
        return By.cssSelector("#schedules tr[data-schedule-id='" + id + "'] button[data-action='" + action + "']");
    }

    /** Waits until the button is enabled, or disabled, as asked (the page re-renders after each action). */
    private void awaitEnabled(By by, boolean enabled) {
        pages.waiting()
                .ignoring(StaleElementReferenceException.class)
                .until(d -> d.findElement(by).isEnabled() == enabled);
    }

    @Test
    void listPauseResumeAndTriggerASchedulesAndFollowItsRunBackToIt() throws IOException {
        t.wf.schedules().create(ScheduleSpec.cron("nightly", SchedulesApiTest.YEARLY, "approval", "scheduled"));
        t.wf.schedules().create(ScheduleSpec.cron(BrowserTest.HOSTILE_ID, SchedulesApiTest.YEARLY, "approval", "x"));
        browser.get(t.dashboard.loginUrl().toString());

        // the runs list links to the schedules page
        pages.click(By.cssSelector("header nav a[href='/schedules.html']"));
        pages.waiting().until(ExpectedConditions.urlContains("/schedules.html"));
        assertThat(pages.text(row("nightly")))
                .contains("approval")
                .contains("cron 0 0 3 1 1 ? (UTC)")
                .contains("ACTIVE")
                .contains("none yet");
        assertThat(pages.text(By.cssSelector("#schedules tbody"))).contains(BrowserTest.HOSTILE_ID);
        assertThat(browser.findElements(By.cssSelector("#schedules img")))
                .as("a schedule id never becomes markup")
                .isEmpty();
        assertThat(browser.getTitle()).isNotEqualTo("pwned");
        awaitEnabled(button("nightly", "pause"), true);
        awaitEnabled(button("nightly", "resume"), false);

        pages.click(button("nightly", "pause"));
        pages.waiting().until(d -> pages.text(row("nightly")).contains("PAUSED"));
        assertThat(t.wf.schedules().describe("nightly").paused()).isTrue();
        awaitEnabled(button("nightly", "pause"), false);
        pages.click(button("nightly", "resume"));
        pages.waiting().until(d -> pages.text(row("nightly")).contains("ACTIVE"));
        assertThat(t.wf.schedules().describe("nightly").paused()).isFalse();

        pages.click(button("nightly", "trigger"));
        assertThat(pages.text(By.cssSelector("#action-result a"))).startsWith("nightly@");
        String runId = t.wf.schedules().describe("nightly").lastRunId();
        assertThat(pages.text(By.cssSelector("#schedules tr[data-schedule-id='nightly'] a[data-rel='last-run']")))
                .isEqualTo(runId);
        t.awaitRun(runId, r -> r.status() == RunStatus.WAITING);
        pages.waiting().until(d -> pages.text(row("nightly")).contains("WAITING"));
        pages.screenshot("dashboard-schedules.png");

        // the run page names the schedule and the fire time, and links back to the schedule
        pages.click(By.cssSelector("#schedules tr[data-schedule-id='nightly'] a[data-rel='last-run']"));
        pages.waiting().until(ExpectedConditions.textToBe(By.id("run-id"), runId));
        pages.waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("scheduled")));
        assertThat(pages.text(By.id("scheduled"))).startsWith("started by schedule nightly for fire time ");
        assertThat(browser.findElement(By.id("scheduled-for")).getAttribute("title"))
                .isEqualTo(runId.substring("nightly@".length()));
        assertThat(pages.text(By.cssSelector("#events tr[data-type='WorkflowStarted'] a[data-rel='schedule']")))
                .isEqualTo("nightly");
        pages.screenshot("dashboard-scheduled-run.png");
        pages.click(By.id("schedule-link"));
        pages.waiting().until(ExpectedConditions.urlContains("/schedules.html?id=nightly"));
        pages.waiting()
                .until(ExpectedConditions.presenceOfElementLocated(
                        By.cssSelector("#schedules tr.selected[data-schedule-id='nightly']")));

        // a run no schedule started says nothing of schedules
        t.waitingRun("by-hand");
        browser.get(t.dashboard.url() + "/run.html?id=by-hand");
        pages.waiting().until(ExpectedConditions.textToBe(By.id("status"), "WAITING"));
        assertThat(browser.findElement(By.id("scheduled")).isDisplayed()).isFalse();

        // a held last run is marked with why: under SKIP it stops its schedule until the hold ends
        t.hold(runId, "the code now asks for a timer");
        browser.get(t.dashboard.url() + "/schedules.html");
        pages.waiting().until(d -> pages.text(row("nightly")).contains("HELD"));
        assertThat(pages.text(By.cssSelector("#schedules tr[data-schedule-id='nightly'] [data-held]")))
                .contains("held: ", "the code now asks for a timer");
    }

    @Test
    void aViewerLoggedInSeesRunsAndSchedulesWithoutTheirActions(@TempDir Path other) {
        try (TestDashboard viewing = new TestDashboard(
                other,
                false,
                Set.of(StartOptions.DEFAULT_QUEUE),
                List.of(new DashboardToken("vera", Role.VIEWER, RolesTest.VIEWER)),
                null)) {
            viewing.wf.schedules().create(ScheduleSpec.cron("nightly", SchedulesApiTest.YEARLY, "approval", "x"));
            viewing.waitingRun("w-1");
            browser.get(viewing.dashboard.url() + "/?token=" + RolesTest.VIEWER);

            browser.get(viewing.dashboard.url() + "/schedules.html");
            assertThat(pages.text(row("nightly"))).contains("ACTIVE");
            pages.waiting()
                    .until(d ->
                            "viewer".equals(d.findElement(By.tagName("html")).getAttribute("data-role")));
            assertThat(browser.findElement(button("nightly", "trigger")).isDisplayed())
                    .isFalse();
            browser.get(viewing.dashboard.url() + "/run.html?id=w-1");
            pages.waiting().until(ExpectedConditions.textToBe(By.id("status"), "WAITING"));
            pages.waiting()
                    .until(d ->
                            "viewer".equals(d.findElement(By.tagName("html")).getAttribute("data-role")));
            assertThat(browser.findElement(By.id("cancel")).isDisplayed()).isFalse();
            assertThat(browser.findElement(By.id("send-signal")).isDisplayed()).isFalse();
            assertThat(pages.text(By.id("timeline"))).isNotEmpty();
        }
    }

    @Test
    void withPublicReadsAVisitorSeesTheSchedulesAndAnActionAsksForTheTokenAsOnARunsPage(@TempDir Path other) {
        try (TestDashboard open = new TestDashboard(other, true)) {
            open.wf.schedules().create(ScheduleSpec.cron("nightly", SchedulesApiTest.YEARLY, "approval", "x"));
            browser.get(open.dashboard.url() + "/schedules.html");
            assertThat(pages.text(row("nightly"))).contains("ACTIVE");

            pages.click(button("nightly", "trigger"));

            pages.waiting().until(ExpectedConditions.urlContains("/login.html"));
            assertThat(open.wf.schedules().describe("nightly").lastRunId()).isNull();
            WebElement token = browser.findElement(By.id("token"));
            assertThat(token.isDisplayed()).isTrue();
        }
    }
}
