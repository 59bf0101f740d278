package io.worldflow.dashboard;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.worldflow.RunStatus;
import io.worldflow.SearchAttributes;
import io.worldflow.SearchKey;
import io.worldflow.StartOptions;
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
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The UI in a real browser: headless Chromium (Debian's {@code chromium} and {@code chromium-driver}, which
 * {@code .ci/run} installs) driven by Selenium. It opens the run list, opens a waiting run, sees its timeline,
 * sends the signal through the form and sees the run complete. Screenshots go to {@code target/}.
 */
class BrowserTest {

    static final String HOSTILE_ID = "<img src=x onerror=\"document.title='pwned'\">";

    @TempDir
    Path dir;

    TestDashboard t;
    WebDriver browser;

    @BeforeEach
    void start() {
        t = new TestDashboard(dir, false);
        browser = chromium();
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        t.close();
    }

    static WebDriver chromium() {
        String binary = System.getProperty("worldflow.test.chromium", "/usr/bin/chromium");
        String driver = System.getProperty("worldflow.test.chromedriver", "/usr/bin/chromedriver");
        assertThat(new File(binary))
                .as("Chromium at %s (apt-get install chromium chromium-driver)", binary)
                .exists();
        assertThat(new File(driver))
                .as("chromedriver at %s (apt-get install chromium-driver)", driver)
                .exists();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(binary);
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-quic",
                "--window-size=1280,1000");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(driver))
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
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

    @Test
    void openAWaitingRunSeeItsTimelineSendTheSignalAndSeeItComplete() throws IOException {
        t.waitingRun("order-7");
        t.waitingRun(HOSTILE_ID);
        t.failedRun("order-8");

        browser.get(t.dashboard.url() + "/run.html?id=order-7");
        waiting().until(ExpectedConditions.urlContains("/login.html"));
        browser.get(t.dashboard.loginUrl().toString());

        // the run list, with counts and every value shown as text (the list may re-render on a live update, so
        // each look finds its element afresh)
        assertThat(text(By.cssSelector("#runs tr[data-run-id='order-7']")))
                .contains("order-7")
                .contains("approval")
                .contains("WAITING");
        waiting().until(ExpectedConditions.textToBe(By.cssSelector("#counts button[data-status='WAITING'] .n"), "2"));
        assertThat(text(By.cssSelector("#runs tr[data-run-id='order-8']")))
                .contains("FAILED")
                .contains("card declined for order-8");
        java.util.List<String> ids = waiting()
                .ignoring(StaleElementReferenceException.class)
                .until(d -> d.findElements(By.cssSelector("#runs tbody tr td:first-child a")).stream()
                        .map(WebElement::getText)
                        .toList());
        assertThat(ids).contains(HOSTILE_ID);
        assertThat(browser.findElements(By.cssSelector("#runs img")))
                .as("a run id never becomes markup")
                .isEmpty();
        assertThat(browser.getTitle()).isNotEqualTo("pwned");
        screenshot("dashboard-runs.png");

        waiting().ignoring(StaleElementReferenceException.class).until(d -> {
            d.findElement(By.cssSelector("#runs tr[data-run-id='order-7'] td a"))
                    .click();
            return true;
        });
        // the waiting run: status, the step and the signal wait on the timeline
        waiting().until(ExpectedConditions.textToBe(By.id("status"), "WAITING"));
        waiting()
                .until(ExpectedConditions.presenceOfElementLocated(
                        By.cssSelector("#timeline svg g[data-kind='signal'] rect.bar.signal")));
        assertThat(browser.findElements(
                        By.cssSelector("#timeline svg g[data-kind='step'][data-id='prepare'] rect.bar.completed")))
                .hasSize(1);
        assertThat(browser.findElement(By.cssSelector("#waits li[data-wait='signal']"))
                        .getText())
                .contains("approval");
        assertThat(browser.findElement(By.id("input")).getText()).isEqualTo("\"order-7\"");
        screenshot("dashboard-waiting-run.png");

        // send the signal through the form
        assertThat(browser.findElement(By.id("signal-name")).getAttribute("value"))
                .isEqualTo("approval");
        browser.findElement(By.id("signal-payload")).sendKeys("{\"by\": \"the browser\"}");
        browser.findElement(By.id("send-signal")).click();

        waiting().until(ExpectedConditions.textToBe(By.id("status"), "COMPLETED"));
        waiting()
                .until(ExpectedConditions.textToBePresentInElementLocated(
                        By.id("output"), "prepared order-7, approved by the browser"));
        waiting()
                .until(ExpectedConditions.presenceOfElementLocated(
                        By.cssSelector("#events tr[data-type='WorkflowCompleted']")));
        assertThat(browser.findElements(
                        By.cssSelector("#timeline svg g[data-kind='step'][data-id='finish'] rect.bar.completed")))
                .hasSize(1);
        assertThat(t.wf.run("order-7").orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        // who did what: the application started it, the dashboard's admin signalled it
        assertThat(browser.findElement(By.cssSelector("#events tr[data-type='WorkflowStarted'] td[data-field='actor']"))
                        .getText())
                .isEqualTo("application");
        assertThat(browser.findElement(By.cssSelector("#events tr[data-type='SignalReceived'] td[data-field='actor']"))
                        .getText())
                .isEqualTo("dashboard:admin");
        waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("chain"), "Hash chain intact"));
        assertThat(browser.findElement(By.id("export-chain")).getAttribute("href"))
                .endsWith("/chain/export");
        browser.findElement(By.id("replay")).click();
        waiting()
                .until(ExpectedConditions.textToBePresentInElementLocated(
                        By.id("replay-result"), "This code replays all"));
        assertThat(browser.findElement(By.id("replay-result")).getText()).contains("ends the run as it ended");
        screenshot("dashboard-completed-run.png");
    }

    @Test
    void aSignalWhoseTypeTheWorkflowDeclaresSaysSoAndAPayloadThatIsNotOneIsRefused() throws IOException {
        t.wf.start("card-update", "cu-1", StartOptions.id("cu-1"));
        t.awaitRun("cu-1", r -> r.status() == RunStatus.WAITING);
        browser.get(t.dashboard.loginUrl().toString());
        browser.get(t.dashboard.url() + "/run.html?id=cu-1");

        String type = TestDashboard.CardUpdate.class.getName();
        assertThat(text(By.cssSelector("#waits li[data-wait='signal'][data-name='card']")))
                .contains("read as " + type);
        waiting()
                .until(ExpectedConditions.textToBePresentInElementLocated(
                        By.id("signal-type"), "The workflow reads this signal as " + type));
        browser.findElement(By.id("signal-payload")).sendKeys("{\"by\": [\"not\", \"a name\"]}");
        browser.findElement(By.id("send-signal")).click();
        waiting()
                .until(ExpectedConditions.textToBePresentInElementLocated(
                        By.id("action-result"), "is declared as " + type));
        assertThat(text(By.id("action-result"))).contains("(at by)");
        assertThat(t.wf.run("cu-1").orElseThrow().status()).isEqualTo(RunStatus.WAITING);
        assertThat(t.wf.world().signals().pending("cu-1")).as("nothing stored").isEmpty();

        // another name declares nothing: no hint
        WebElement name = browser.findElement(By.id("signal-name"));
        name.clear();
        name.sendKeys("other");
        assertThat(browser.findElement(By.id("signal-type")).isDisplayed()).isFalse();
        screenshot("dashboard-declared-signal.png");
    }

    @Test
    void aParentLinksToItsChildAndTheChildBackToItsParent() throws IOException {
        t.parentRun("family-1");
        browser.get(t.dashboard.loginUrl().toString());
        browser.get(t.dashboard.url() + "/run.html?id=family-1");

        assertThat(text(By.cssSelector("#events a[data-rel='child']"))).isEqualTo("family-1/approve");
        assertThat(text(By.cssSelector("#children tr[data-run-id='family-1/approve']")))
                .contains("approval")
                .contains("WAITING");
        assertThat(text(By.cssSelector("#waits li[data-wait='child']"))).contains("family-1/approve");
        // a parent that only starts a child has no steps, and no result while it waits: each box says so
        assertThat(text(By.cssSelector("#steps tr[data-empty='steps']"))).isEqualTo("no steps yet");
        assertThat(text(By.cssSelector("#output [data-empty='not-ended']")))
                .isEqualTo("none yet: the run has not ended");
        waiting()
                .until(ExpectedConditions.presenceOfElementLocated(
                        By.cssSelector("#timeline svg g[data-kind='child'] rect.bar.child.open")));
        screenshot("dashboard-parent-run.png");

        waiting().ignoring(StaleElementReferenceException.class).until(d -> {
            d.findElement(By.cssSelector("#events a[data-rel='child']")).click();
            return true;
        });
        waiting().until(ExpectedConditions.textToBe(By.id("run-id"), "family-1/approve"));
        assertThat(text(By.cssSelector("#events a[data-rel='parent']"))).isEqualTo("family-1");

        t.wf.signal("family-1/approve", "approval", Map.of("by", "the parent's page"));
        t.awaitRun("family-1", r -> r.status() == RunStatus.COMPLETED);
        browser.get(t.dashboard.url() + "/run.html?id=family-1");
        waiting().until(ExpectedConditions.textToBe(By.id("status"), "COMPLETED"));
        assertThat(text(By.cssSelector("#children tr[data-run-id='family-1/approve']")))
                .contains("COMPLETED");
        assertThat(text(By.id("output"))).isEqualTo("\"parent of prepared family-1, approved by the parent's page\"");
        assertThat(text(By.cssSelector("#steps tr[data-empty='steps']"))).isEqualTo("no steps");
        assertThat(text(By.cssSelector("#events tr[data-type='ChildWorkflowCompleted']")))
                .contains("family-1/approve")
                .contains("approved by the parent's page");
        waiting()
                .until(ExpectedConditions.presenceOfElementLocated(
                        By.cssSelector("#timeline svg g[data-kind='child'] rect.bar.child.completed")));
    }

    @Test
    void aRaceShowsItsWinnerAndItsCanceledLoserAndARunLinksToItsSuccessorAndBack() throws IOException {
        t.renewedRun("renew-1");
        browser.get(t.dashboard.loginUrl().toString());
        browser.get(t.dashboard.url() + "/run.html?id=renew-1");

        assertThat(text(By.cssSelector("#events tr[data-type='RaceStarted']"))).contains("pay, expiry");
        assertThat(text(By.cssSelector("#events tr[data-type='RaceWon']"))).contains("won by pay");
        assertThat(text(By.cssSelector("#events tr[data-type='PrimitiveCanceled']")))
                .contains("expiry canceled")
                .contains("lost race 'paid-or-expired'");
        waiting()
                .until(ExpectedConditions.presenceOfElementLocated(
                        By.cssSelector("#timeline svg g[data-kind='race'] rect.bar.race.completed")));
        waiting()
                .until(ExpectedConditions.presenceOfElementLocated(
                        By.cssSelector("#timeline svg g[data-kind='timer'] rect.bar.canceled")));
        assertThat(text(By.cssSelector("#events a[data-rel='successor']"))).isEqualTo("renew-1~2");
        assertThat(text(By.id("output"))).isEqualTo("continued as renew-1~2");
        screenshot("dashboard-race.png");

        waiting().ignoring(StaleElementReferenceException.class).until(d -> {
            d.findElement(By.cssSelector("#events a[data-rel='successor']")).click();
            return true;
        });
        waiting().until(ExpectedConditions.textToBe(By.id("run-id"), "renew-1~2"));
        assertThat(text(By.cssSelector("#events a[data-rel='predecessor']"))).isEqualTo("renew-1");
        waiting().until(ExpectedConditions.textToBe(By.id("status"), "COMPLETED"));
    }

    /** The ids of the runs the list shows, looked up again if the list was replaced meanwhile. */
    private List<String> listedIds() {
        return waiting()
                .ignoring(StaleElementReferenceException.class)
                .until(d -> d.findElements(By.cssSelector("#runs tbody tr td:first-child a")).stream()
                        .map(WebElement::getText)
                        .toList());
    }

    @Test
    void aHeldRunIsMarkedCountedFoundByTheFilterAndItsPageSaysWhyAndWhatResumesIt() throws IOException {
        t.waitingRun("order-1");
        t.heldRun("order-2");
        browser.get(t.dashboard.loginUrl().toString());

        // the list: a HELD badge beside the status, and the count of held runs with the counts by status
        assertThat(text(By.cssSelector("#runs tr[data-run-id='order-2']")))
                .contains("WAITING")
                .contains("HELD")
                .contains("no longer matches its history");
        assertThat(browser.findElements(By.cssSelector("#runs tr[data-run-id='order-2'] .status.HELD")))
                .hasSize(1);
        assertThat(browser.findElements(By.cssSelector("#runs tr[data-run-id='order-1'] .status.HELD")))
                .isEmpty();
        waiting().until(ExpectedConditions.textToBe(By.cssSelector("#counts button[data-status='WAITING'] .n"), "2"));
        waiting().until(ExpectedConditions.textToBe(By.cssSelector("#counts button[data-status='HELD'] .n"), "1"));
        screenshot("dashboard-held-runs.png");

        // the held count filters like the others, through the status filter's "held" choice
        browser.findElement(By.cssSelector("#counts button[data-status='HELD']"))
                .click();
        waiting().until(d -> listedIds().equals(List.of("order-2")));
        assertThat(new Select(browser.findElement(By.name("status")))
                        .getFirstSelectedOption()
                        .getText())
                .isEqualTo("held (any status)");
        new Select(browser.findElement(By.name("status"))).selectByVisibleText("WAITING");
        browser.findElement(By.cssSelector("#filters button[type='submit']")).click();
        waiting().until(d -> listedIds().equals(List.of("order-2", "order-1")));
        new Select(browser.findElement(By.name("status"))).selectByValue("HELD");
        browser.findElement(By.cssSelector("#filters button[type='submit']")).click();
        waiting().until(d -> listedIds().equals(List.of("order-2")));

        // the run page: the hold first, why, since when, and what lets the run go on
        browser.get(t.dashboard.url() + "/run.html?id=order-2");
        waiting().until(ExpectedConditions.textToBe(By.id("status"), "WAITING"));
        waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("held")));
        assertThat(browser.findElement(By.id("held-badge")).isDisplayed()).isTrue();
        assertThat(browser.findElement(By.id("held-reason")).getText())
                .startsWith(
                        "io.worldflow.NonDeterministicWorkflowException: run 'order-2' no longer matches its history")
                .contains("the code now asks for a timer");
        assertThat(browser.findElement(By.id("held-since")).getText()).isNotBlank();
        assertThat(browser.findElement(By.id("held-resume")).getText())
                .contains("it resumes when a worker whose code matches its history starts");
        assertThat(browser.findElement(By.id("held-trace")).isDisplayed())
                .as("the stack trace waits in its expander")
                .isFalse();
        browser.findElement(By.cssSelector("#held-details summary")).click();
        assertThat(browser.findElement(By.id("held-trace")).getText())
                .contains("at io.worldflow.dashboard.TestDashboard.heldRun");
        assertThat(browser.findElements(By.cssSelector("#waits li")).getFirst().getAttribute("data-wait"))
                .isEqualTo("held");
        screenshot("dashboard-held-run.png");

        // a run that is not held shows none of it
        browser.get(t.dashboard.url() + "/run.html?id=order-1");
        waiting().until(ExpectedConditions.textToBe(By.id("status"), "WAITING"));
        assertThat(browser.findElement(By.id("held")).isDisplayed()).isFalse();
        assertThat(browser.findElement(By.id("held-badge")).isDisplayed()).isFalse();
    }

    @Test
    void runsAreFilteredByTheSearchAttributesTypedAndARunLinksEachOfItsAttributesToTheRunsThatShareIt()
            throws IOException {
        SearchKey<String> customer = SearchKey.forString("customer");
        SearchKey<Long> tier = SearchKey.forLong("tier");
        t.taggedRun(
                "order-11",
                SearchAttributes.of(customer, "acme corp").with(tier, 2L).with(SearchKey.forBoolean("vip"), true));
        t.waitingRun("order-12", SearchAttributes.of(customer, "globex").with(tier, 2L));
        t.waitingRun("order-13", SearchAttributes.of(customer, "acme corp").with(tier, 3L));
        t.waitingRun("order-14");
        browser.get(t.dashboard.loginUrl().toString());
        waiting().until(d -> listedIds().equals(List.of("order-14", "order-13", "order-12", "order-11")));

        // typed into the runs page's filter: a string with a space in quotes, a long by its type
        WebElement field = browser.findElement(By.name("attributes"));
        assertThat(field.getAttribute("placeholder")).contains(":long:");
        assertThat(browser.findElement(By.xpath("//input[@name='attributes']/parent::label"))
                        .getAttribute("title"))
                .contains("name:type:value");
        field.sendKeys("\"customer:acme corp\"");
        browser.findElement(By.cssSelector("#filters button[type='submit']")).click();
        waiting().until(d -> listedIds().equals(List.of("order-13", "order-11")));
        waiting().until(ExpectedConditions.textToBe(By.cssSelector("#counts button[data-status='WAITING'] .n"), "2"));
        field.sendKeys(" tier:long:2");
        browser.findElement(By.cssSelector("#filters button[type='submit']")).click();
        waiting().until(d -> listedIds().equals(List.of("order-11")));
        field.clear();
        field.sendKeys("tier:2");
        browser.findElement(By.cssSelector("#filters button[type='submit']")).click();
        waiting().until(d -> listedIds().isEmpty());
        assertThat(browser.findElement(By.id("empty")).isDisplayed()).isTrue();
        field.clear();
        field.sendKeys("tier:long:two");
        browser.findElement(By.cssSelector("#filters button[type='submit']")).click();
        waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("error"), "not a long"));
        field.clear();
        browser.findElement(By.name("queue")).sendKeys("default");
        field.sendKeys("tier:long:2");
        browser.findElement(By.cssSelector("#filters button[type='submit']")).click();
        waiting().until(d -> listedIds().equals(List.of("order-12", "order-11")));
        assertThat(browser.findElement(By.id("error")).isDisplayed()).isFalse();
        screenshot("dashboard-runs-by-attribute.png");

        // the run's page: its attributes now (the workflow set stage and removed vip), and its timeline's changes
        browser.get(t.dashboard.url() + "/run.html?id=order-11");
        waiting().until(ExpectedConditions.textToBe(By.id("status"), "WAITING"));
        assertThat(text(By.cssSelector("#attributes li[data-attribute='customer']")))
                .isEqualTo("customer = \"acme corp\"");
        assertThat(text(By.cssSelector("#attributes li[data-attribute='tier']")))
                .isEqualTo("tier = 2");
        assertThat(text(By.cssSelector("#attributes li[data-attribute='stage']")))
                .isEqualTo("stage = \"packed\"");
        assertThat(browser.findElements(By.cssSelector("#attributes li[data-attribute='vip']")))
                .isEmpty();
        assertThat(text(By.cssSelector("#events tr[data-type='WorkflowStarted'] td.detail")))
                .contains("customer = \"acme corp\"")
                .contains("tier = 2")
                .contains("vip = true");
        By updates = By.cssSelector("#events tr[data-type='SearchAttributesUpdated'] td.detail");
        List<String> changes = waiting()
                .ignoring(StaleElementReferenceException.class)
                .until(d -> {
                    List<String> found = d.findElements(updates).stream()
                            .map(WebElement::getText)
                            .toList();
                    return found.size() == 2 ? found : null;
                });
        assertThat(changes).containsExactly("stage = \"packed\"", "removed vip");
        screenshot("dashboard-run-attributes.png");

        // an attribute's link lists the runs that share it, its filter in the field
        waiting().ignoring(StaleElementReferenceException.class).until(d -> {
            d.findElement(By.cssSelector("#attributes li[data-attribute='tier'] a"))
                    .click();
            return true;
        });
        waiting().until(d -> listedIds().equals(List.of("order-12", "order-11")));
        assertThat(browser.findElement(By.name("attributes")).getAttribute("value"))
                .isEqualTo("tier:long:2");
        browser.navigate().back();
        waiting().ignoring(StaleElementReferenceException.class).until(d -> {
            d.findElement(By.cssSelector("#attributes li[data-attribute='customer'] a"))
                    .click();
            return true;
        });
        waiting().until(d -> listedIds().equals(List.of("order-13", "order-11")));
        assertThat(browser.findElement(By.name("attributes")).getAttribute("value"))
                .isEqualTo("\"customer:acme corp\"");
    }

    @Test
    void theEventsTableShowsPayloadValuesAndLeavesTheJavaTypeToTheTooltip() throws IOException {
        t.completedOrder("order-3", new TestDashboard.Order("A-1", 2));
        browser.get(t.dashboard.loginUrl().toString());
        waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#runs tr[data-run-id='order-3']")));

        browser.get(t.dashboard.url() + "/run.html?id=order-3");

        By started = By.cssSelector("#events tr[data-type='WorkflowStarted'] td.detail");
        assertThat(text(started)).isEqualTo("order {\"sku\":\"A-1\",\"quantity\":2}");
        assertThat(browser.findElement(started).getAttribute("title"))
                .isEqualTo("input: " + TestDashboard.Order.class.getName());
        assertThat(text(By.cssSelector("#events tr[data-type='StepCompleted'] td.detail")))
                .isEqualTo("price → {\"sku\":\"A-1\",\"total\":12.5}");
        assertThat(text(By.cssSelector("#events tbody")))
                .doesNotContain("TestDashboard$")
                .doesNotContain("\"value\"");
        assertThat(browser.findElement(By.id("trace")).isDisplayed())
                .as("a run started untraced shows no trace")
                .isFalse();
        screenshot("dashboard-events.png");

        // a run started under a trace shows the trace id its spans carry, for finding it in a tracing tool
        t.tracedRun("traced-1", TestDashboard.TRACE_PARENT);
        browser.get(t.dashboard.url() + "/run.html?id=traced-1");
        assertThat(text(By.id("trace-id"))).isEqualTo(TestDashboard.TRACE_ID);
        assertThat(browser.findElement(By.id("trace")).getText()).isEqualTo("trace " + TestDashboard.TRACE_ID);
        screenshot("dashboard-traced-run.png");
    }

    @Test
    void theRunsPageChartsTheLastHourAndSaysWhenAChartHasNoData(@TempDir Path other)
            throws IOException, InterruptedException {
        t.completedOrder("order-4", new TestDashboard.Order("A-1", 1));
        // the dashboard samples every few seconds: the page is opened once a sample has seen the run's end
        long end = System.nanoTime() + TestDashboard.WAIT.toNanos();
        while (!t.get("/api/metrics/history").body().contains("\"value\":1}") && System.nanoTime() < end) {
            Thread.sleep(100);
        }
        browser.get(t.dashboard.loginUrl().toString());

        // no worker's meters here: both charts are read from the world, throughput for the whole hour back
        waiting().until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#chart-throughput svg rect.bar"), 61));
        assertThat(text(By.cssSelector("#chart-throughput [data-field='measure']")))
                .isEqualTo("runs the world ended");
        assertThat(browser.findElements(By.cssSelector("#chart-throughput svg rect.bar title")))
                .anyMatch(title -> title.getAttribute("textContent").endsWith(": 1 ended"));
        waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#chart-lag svg polyline.line")));
        screenshot("dashboard-charts.png");

        // a worker's meters have no lag before its first turn: that chart says it has no data
        try (TestDashboard fresh = new TestDashboard(other, List.of(), new SimpleMeterRegistry(), false)) {
            browser.get(fresh.dashboard.loginUrl().toString());
            waiting()
                    .until(ExpectedConditions.textToBePresentInElementLocated(
                            By.cssSelector("#chart-lag .plot"), "No data yet"));
            waiting()
                    .until(ExpectedConditions.presenceOfElementLocated(
                            By.cssSelector("#chart-throughput svg rect.bar")));
            assertThat(text(By.cssSelector("#chart-throughput [data-field='measure']")))
                    .isEqualTo("runs this process's worker ended");
        }
    }

    @Test
    void aRunTerminatedWhileItWaitedWaitsForNothingAndItsWaitIsCutOffWhereItEnded() throws IOException {
        t.waitingRun("order-10");
        t.wf.terminate("order-10", "stuck order");
        t.awaitRun("order-10", r -> r.status() == RunStatus.CANCELED);

        browser.get(t.dashboard.loginUrl().toString());
        browser.get(t.dashboard.url() + "/run.html?id=order-10");
        waiting().until(ExpectedConditions.textToBe(By.id("status"), "CANCELED"));
        waiting()
                .until(ExpectedConditions.presenceOfElementLocated(
                        By.cssSelector("#timeline svg g[data-kind='signal'] rect.bar.signal.cut")));
        assertThat(browser.findElements(By.cssSelector("#timeline svg rect.bar.open")))
                .as("nothing of an ended run is in progress")
                .isEmpty();
        assertThat(text(By.id("waits"))).isEqualTo("nothing");
        assertThat(browser.findElement(By.id("send-signal")).isEnabled()).isFalse();
        screenshot("dashboard-terminated-run.png");
    }

    @Test
    void retryAFailedRunFromItsPage() throws IOException {
        t.failedRun("order-9");
        browser.get(t.dashboard.loginUrl().toString());
        waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#runs tr[data-run-id='order-9']")));
        browser.get(t.dashboard.url() + "/run.html?id=order-9");
        waiting().until(ExpectedConditions.textToBe(By.id("status"), "FAILED"));
        assertThat(browser.findElement(By.id("failure")).getText())
                .contains("card declined for order-9")
                .contains("IllegalStateException");
        assertThat(browser.findElement(By.id("failure-section")).isDisplayed()).isTrue();
        assertThat(text(By.cssSelector("#output [data-empty='no-result']"))).isEqualTo("none: the run failed");
        assertThat(browser.findElements(By.cssSelector("#steps tr[data-step='charge']")))
                .hasSize(1);
        assertThat(browser.findElement(By.id("send-signal")).isEnabled()).isFalse();

        t.cardWorks.set(true);
        browser.findElement(By.id("retry")).click();

        waiting().until(ExpectedConditions.textToBe(By.id("status"), "COMPLETED"));
        waiting()
                .until(ExpectedConditions.presenceOfElementLocated(
                        By.cssSelector("#events tr[data-type='WorkflowRetried']")));
        assertThat(browser.findElement(By.id("output")).getText()).isEqualTo("\"charged order-9\"");
        assertThat(browser.findElement(By.id("failure-section")).isDisplayed())
                .as("the failure the retry got past is no longer shown as the run's")
                .isFalse();
        screenshot("dashboard-retried-run.png");
    }
}
