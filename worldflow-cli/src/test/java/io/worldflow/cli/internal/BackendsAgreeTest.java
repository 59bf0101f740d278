package io.worldflow.cli.internal;

import io.worldflow.RetryPolicy;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.ScheduleSpec;
import io.worldflow.SearchKey;
import io.worldflow.StartOptions;
import io.worldflow.StepOptions;
import io.worldflow.Workflow;
import io.worldflow.dashboard.Dashboard;
import io.worldflow.dashboard.DashboardSettings;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two ways of reaching runs give the same answers: the world read directly, and the same world read through a
 * dashboard's API, page by page, run by run, log by log.
 */
class BackendsAgreeTest {

    static final String TOKEN = "agree-admin-token-0123456789";
    static final SearchKey<String> CUSTOMER = SearchKey.forString("customer");

    @TempDir
    static Path tmp;

    static Worldflow wf;
    static Dashboard dashboard;
    static DirectBackend direct;
    static ServerBackend server;

    @BeforeAll
    static void aWorldWithADashboard() throws Exception {
        Workflow<String, String> greet =
                Workflow.define("greet", String.class, (ctx, in) -> ctx.step("hello", () -> "hello " + in));
        Workflow<String, String> wait = Workflow.define("wait", String.class, (ctx, in) -> {
            ctx.awaitSignal("go", String.class);
            return in;
        });
        Workflow<String, String> fail = Workflow.define(
                "fail",
                String.class,
                (ctx, in) -> ctx.step("charge", StepOptions.retry(RetryPolicy.none()), () -> {
                    throw new IllegalStateException("declined " + in);
                }));
        wf = Worldflow.builder()
                .property("worldflow.local.path", tmp.resolve("agree.db").toString())
                .register(greet)
                .register(wait)
                .register(fail)
                .build();
        wf.startWorker();
        for (int i = 1; i <= 3; i++) {
            wf.start(greet, "n" + i, StartOptions.id("greet-" + i).withSearchAttribute(CUSTOMER, "c" + (i % 2)));
        }
        wf.start(wait, "w", StartOptions.id("wait-1"));
        wf.start(fail, "f", StartOptions.id("fail-1"));
        wf.cancel("wait-1", null); // a cancellation asked for without a reason, carried out at once
        wf.schedules()
                .create(ScheduleSpec.cron("nightly", "0 0 2 * * ?", greet, "night")
                        .inZone("Europe/Berlin"));
        wf.schedules().create(ScheduleSpec.every("often", Duration.ofMinutes(5), greet, "often"));
        wf.schedules().pause("often");
        await("greet-3", RunStatus.COMPLETED);
        await("fail-1", RunStatus.FAILED);
        await("wait-1", RunStatus.CANCELED);
        dashboard = Dashboard.start(wf, new DashboardSettings("127.0.0.1", 0, TOKEN, false, false, 65536, List.of()));
        direct = new DirectBackend(wf);
        server = new ServerBackend(dashboard.url(), TOKEN, JsonOutput.mapper());
    }

    @AfterAll
    static void close() {
        dashboard.close();
        wf.close();
    }

    static void await(String runId, RunStatus status) throws InterruptedException {
        for (int i = 0; i < 1000 && wf.run(runId).orElseThrow().status() != status; i++) {
            Thread.sleep(10);
        }
        assertThat(wf.run(runId).orElseThrow().status()).isEqualTo(status);
    }

    @Test
    void listsAndCountsTheSameRuns() {
        for (RunQuery q : List.of(
                RunQuery.all(),
                RunQuery.all().withStatuses(RunStatus.COMPLETED, RunStatus.FAILED),
                RunQuery.all().withAttribute(CUSTOMER, "c1"),
                RunQuery.all().withWorkflow("greet"))) {
            assertThat(server.runs(q)).as("%s", q).isEqualTo(direct.runs(q));
            assertThat(server.count(q)).as("%s", q).isEqualTo(direct.count(q));
        }
        assertThat(direct.count(RunQuery.all())).isEqualTo(5);
        assertThat(pages(server)).isEqualTo(pages(direct)).hasSize(5);
    }

    /** Every run id, two runs a page, following the cursor. */
    static List<String> pages(Backend backend) {
        List<String> ids = new ArrayList<>();
        RunQuery q = RunQuery.all().withLimit(2);
        for (String cursor = null; ; ) {
            RunList page = backend.runs(q.withCursor(cursor));
            page.runs().forEach(r -> ids.add(r.runId()));
            if ((cursor = page.nextCursor()) == null) {
                return ids;
            }
        }
    }

    @Test
    void showTheSameRunsLogsAndChains() {
        for (String runId : List.of("greet-1", "wait-1", "fail-1")) {
            RunDetail d = direct.run(runId);
            RunDetail s = server.run(runId);
            assertThat(s)
                    .as(runId)
                    .usingRecursiveComparison()
                    .ignoringFields("cancelRequest")
                    .isEqualTo(d);
            assertThat(server.events(runId)).as(runId).isEqualTo(direct.events(runId));
            assertThat(server.history(runId)).as(runId).isEqualTo(direct.history(runId));
            assertThat(server.verify(runId)).as(runId).isEqualTo(direct.verify(runId));
        }
        assertThat(direct.run("fail-1").error()).contains("declined f");
    }

    @Test
    void showTheSameSchedules() {
        assertThat(server.schedules()).isEqualTo(direct.schedules()).hasSize(2);
        assertThat(server.schedule("nightly")).isEqualTo(direct.schedule("nightly"));
        assertThat(direct.schedule("often").paused()).isTrue();
        assertThat(direct.schedule("nightly").zone()).isEqualTo("Europe/Berlin");
    }
}
