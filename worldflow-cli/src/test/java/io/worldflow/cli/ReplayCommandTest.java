package io.worldflow.cli;

import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code worldflow replay} as a user runs it: the application's workflow classes named, histories saved by export or
 * read from the world, the current code's verdict on each, and a change that breaks them found.
 */
class ReplayCommandTest {

    @TempDir
    Path dir;

    @Test
    void historiesReplayWithTheNamedCodeAndABreakingChangeIsFoundByEventAndPrimitive() throws Exception {
        Path db = dir.resolve("app.db");
        TestWorkflows flows = new TestWorkflows();
        Path histories = Files.createDirectories(dir.resolve("histories"));
        try (Worldflow wf = flows.open(Map.of("worldflow.local.path", db.toString()))) {
            for (String who : List.of("ana", "bo")) {
                String id = wf.start(flows.greet, who).id();
                wf.handle(id, String.class).result(TestWorkflows.WAIT);
                Files.writeString(histories.resolve(who + ".json"), wf.codec().encodeEvents(wf.events(id)));
            }
        }
        String runId;
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", db.toString())
                .build()) {
            runId = wf.runs(io.worldflow.RunQuery.all()).runs().getFirst().runId();
        }
        List<String> local = List.of("-Dworldflow.local.path=" + db);
        Map<String, CliResult> r = ChildCli.batch(
                local,
                new java.util.LinkedHashMap<>(Map.of(
                        "same",
                                List.of(
                                        "replay",
                                        "--workflows",
                                        "io.worldflow.cli.fixtures.Greeting",
                                        "--dir",
                                        histories.toString()),
                        "changed",
                                List.of(
                                        "replay",
                                        "--workflows",
                                        "io.worldflow.cli.fixtures.GreetingChanged",
                                        "--history",
                                        histories.resolve("ana.json").toString(),
                                        "--json"),
                        "fromWorld",
                                List.of("replay", "--workflows", "io.worldflow.cli.fixtures.Greeting", "--run", runId),
                        "noClass", List.of("replay", "--workflows", "com.acme.Nowhere", "--dir", histories.toString()),
                        "noInput", List.of("replay", "--workflows", "io.worldflow.cli.fixtures.Greeting"),
                        "noFile",
                                List.of(
                                        "replay",
                                        "--workflows",
                                        "io.worldflow.cli.fixtures.Greeting",
                                        "--history",
                                        dir.resolve("missing.json").toString()))));

        assertThat(r.get("same").exit()).as(r.get("same").toString()).isZero();
        assertThat(r.get("same").out())
                .contains("MATCHED  " + histories.resolve("ana.json"))
                .contains("MATCHED  " + histories.resolve("bo.json"))
                .contains("replayed 2 histories: the code matches every one");

        CliResult changed = r.get("changed");
        assertThat(changed.exit()).as(changed.toString()).isEqualTo(ExitCodes.PROBLEM);
        assertThat(changed.out())
                .contains("\"outcome\" : \"DIVERGED\"")
                .contains("step 'hello' in the history (from seq 1)")
                .contains("the code now asks for step 'salute'");

        assertThat(r.get("fromWorld").exit()).as(r.get("fromWorld").toString()).isZero();
        assertThat(r.get("fromWorld").out()).contains("MATCHED  run " + runId);

        assertThat(r.get("noClass").exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.get("noClass").errLines()).hasSize(1);
        assertThat(r.get("noClass").err()).contains("no class com.acme.Nowhere");
        assertThat(r.get("noInput").exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.get("noInput").err()).contains("give --history FILE, --dir FOLDER or --run ID");
        assertThat(r.get("noFile").exit()).as("a missing file is bad input").isEqualTo(ExitCodes.USAGE);
        assertThat(r.get("noFile").errLines()).hasSize(1);
        assertThat(r.get("noFile").err()).contains("no history file");
    }

    @Test
    void migrateRefusesBadInputBeforeOpeningAnything() {
        CliResult same = InProcessCli.run("migrate", "--from", "local", "--to", "local");
        assertThat(same.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(same.err()).contains("--from and --to name the same world");
        CliResult batch = InProcessCli.run("migrate", "--from", "local", "--to", "postgres", "--batch", "0");
        assertThat(batch.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(batch.err()).contains("--batch must be within 1..1000");
        CliResult missing = InProcessCli.run(
                "migrate",
                "--from",
                "local",
                "--from-p",
                "worldflow.local.path=" + dir.resolve("none.db"),
                "--to",
                "postgres");
        assertThat(missing.exit()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(missing.err()).contains("no local world at").contains("none.db");
        CliResult noWorld = InProcessCli.run("migrate", "--to", "postgres");
        assertThat(noWorld.exit()).isEqualTo(ExitCodes.USAGE);
    }
}
