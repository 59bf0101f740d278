package io.worldflow.cli;

import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged command as the README runs it: {@code java -jar worldflow-cli.jar} with nothing else on its classpath,
 * and {@code bin/worldflow}, over a local world's file an application wrote.
 */
class CliJarIT {

    static final Path JAR = Path.of(System.getProperty("cli.jar", "target/worldflow-cli.jar"));
    static final Path SCRIPT = Path.of(System.getProperty("cli.script", "bin/worldflow"));

    @TempDir
    static Path tmp;

    static Path db;

    @BeforeAll
    static void anApplicationRanAWorkflow() {
        db = tmp.resolve("app.db");
        Workflow<String, String> greet =
                Workflow.define("greet", String.class, (ctx, in) -> ctx.step("hello", () -> "hello " + in));
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", db.toString())
                .register(greet)
                .build()) {
            wf.startWorker();
            wf.start(greet, "ada", StartOptions.id("greet-1")).result(Duration.ofSeconds(30));
        }
    }

    /** {@code java <jvm…> -jar worldflow-cli.jar <args…>}, with no JVM flag: the jar's manifest must do. */
    static CliResult javaJar(List<String> jvm, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvm);
        cmd.add("-jar");
        cmd.add(JAR.toString());
        cmd.addAll(List.of(args));
        return exec(cmd, Map.of());
    }

    static CliResult exec(List<String> cmd, Map<String, String> env) throws Exception {
        Path out = Files.createTempFile(tmp, "out", ".txt");
        Path err = Files.createTempFile(tmp, "err", ".txt");
        int exit = ChildCli.exec(cmd, env, out, err);
        return new CliResult(exit, Files.readString(out), Files.readString(err));
    }

    @Test
    void theJarFindsEveryWorld() throws Exception {
        CliResult r = javaJar(List.of(), "worlds");
        assertThat(r.exit()).as("%s", r).isZero();
        assertThat(r.err()).as("the jar warns of nothing").isEmpty();
        assertThat(r.out()).contains("aws\n", "local  (configured: worldflow.world)\n", "postgres\n");
        assertThat(javaJar(List.of(), "--version").out()).startsWith("worldflow 0.1.0-SNAPSHOT");
    }

    @Test
    void theJarOpensALocalWorld() throws Exception {
        CliResult r = javaJar(List.of("-Dworldflow.local.path=" + db), "runs", "list");
        assertThat(r.exit()).as("%s", r).isZero();
        // nothing on standard error: SQLite's native library loads without the JDK's warning, logging stays quiet
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).containsPattern("greet-1 +greet +COMPLETED");
    }

    @Test
    void theScriptRunsTheJarFromTheBuildOrBesideIt() throws Exception {
        Map<String, String> env = Map.of("JAVA_HOME", System.getProperty("java.home"), "JAVA_OPTS", "-Xmx256m");
        CliResult fromBuild =
                exec(List.of(SCRIPT.toString(), "runs", "show", "-Dworldflow.local.path=" + db, "greet-1"), env);
        assertThat(fromBuild.exit()).as("%s", fromBuild).isZero();
        assertThat(fromBuild.err()).isEmpty();
        assertThat(fromBuild.out()).containsPattern("status +COMPLETED");

        Path installed = Files.createDirectories(tmp.resolve("install"));
        Files.copy(SCRIPT, installed.resolve("worldflow"));
        installed.resolve("worldflow").toFile().setExecutable(true);
        Files.copy(JAR, installed.resolve("worldflow-cli.jar"));
        CliResult beside = exec(
                List.of(
                        installed.resolve("worldflow").toString(),
                        "-Dworldflow.local.path=" + db,
                        "runs",
                        "show",
                        "nope"),
                env);
        assertThat(beside.exit()).as("%s", beside).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(beside.errLines()).containsExactly("worldflow: run 'nope' does not exist");
    }

    @Test
    void theScriptSaysWhichJavaIsTooOldAndUsesANewerOneOnThePath() throws Exception {
        // a Java 17 home whose java, if it were run, would leave a mark: its release file must be enough to refuse it
        Path old = Files.createDirectories(tmp.resolve("jdk-17/bin"));
        Files.writeString(old.resolveSibling("release"), "JAVA_VERSION=\"17.0.15\"\n");
        Path mark = tmp.resolve("old-java-ran");
        Files.writeString(old.resolve("java"), "#!/bin/sh\ntouch " + mark + "\nexit 99\n");
        old.resolve("java").toFile().setExecutable(true);
        String oldJava = old.resolve("java").toString();

        CliResult refused = exec(
                List.of(SCRIPT.toString(), "--version"),
                Map.of("JAVA_HOME", old.getParent().toString(), "PATH", old + ":/usr/bin:/bin"));
        assertThat(refused.exit()).as("%s", refused).isEqualTo(ExitCodes.USAGE);
        assertThat(refused.errLines()).hasSize(1);
        assertThat(refused.errLines()[0])
                .startsWith("worldflow: needs Java 21 or newer, and " + oldJava + " is Java 17: set JAVA_HOME to a"
                        + " Java 21 or newer");
        assertThat(refused.out()).isEmpty();

        Path newer = Path.of(System.getProperty("java.home"), "bin");
        CliResult fromPath = exec(
                List.of(SCRIPT.toString(), "--version"),
                Map.of("JAVA_HOME", old.getParent().toString(), "PATH", newer + ":/usr/bin:/bin"));
        assertThat(fromPath.exit()).as("%s", fromPath).isZero();
        assertThat(fromPath.out()).startsWith("worldflow 0.1.0-SNAPSHOT");
        assertThat(mark).as("the old java never ran").doesNotExist();
    }
}
