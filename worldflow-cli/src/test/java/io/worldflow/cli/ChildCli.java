package io.worldflow.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The command run as a user runs it: a JVM of its own on this module's classpath, with the CLI's own logging
 * configuration (not the tests'), the JVM flags the build gives every JVM, and {@code -D} properties.
 */
final class ChildCli {

    private static final Duration LIMIT = Duration.ofSeconds(60);

    private ChildCli() {}

    /** {@code java <flags> <properties> -cp <classpath> io.worldflow.cli.WorldflowCli args}: one command, its real exit. */
    static CliResult run(List<String> properties, String... args) throws IOException, InterruptedException {
        return run(Map.of(), properties, args);
    }

    /** As {@link #run(List, String...)}, with more environment variables. */
    static CliResult run(Map<String, String> env, List<String> properties, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = jvm(properties);
        cmd.add(WorldflowCli.class.getName());
        cmd.addAll(List.of(args));
        Path dir = Files.createTempDirectory("cli");
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        int exit = exec(cmd, env, out, err);
        return new CliResult(exit, Files.readString(out), Files.readString(err));
    }

    /**
     * Several command lines in one JVM ({@link CliBatch}), by name: each result under the name of its command line.
     * The JVM itself must end cleanly, having printed nothing of its own.
     */
    static Map<String, CliResult> batch(List<String> properties, Map<String, List<String>> commands)
            throws IOException, InterruptedException {
        ObjectMapper json = new ObjectMapper();
        Path dir = Files.createTempDirectory("cli-batch");
        Path in = dir.resolve("commands.json");
        Path results = dir.resolve("results.json");
        json.writeValue(in.toFile(), new ArrayList<>(commands.values()));
        List<String> cmd = jvm(properties);
        cmd.add(CliBatch.class.getName());
        cmd.add(in.toString());
        cmd.add(results.toString());
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        int exit = exec(cmd, Map.of(), out, err);
        if (exit != 0 || !Files.exists(results)) {
            throw new AssertionError("the batch JVM failed (exit " + exit + "):\n" + Files.readString(out) + "\n"
                    + Files.readString(err));
        }
        List<CliResult> list = json.readValue(results.toFile(), new TypeReference<>() {});
        Map<String, CliResult> byName = new LinkedHashMap<>();
        int i = 0;
        for (String name : commands.keySet()) {
            byName.put(name, list.get(i++));
        }
        return byName;
    }

    static List<String> jvm(List<String> properties) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(accessFlags());
        // a command lives a second: the quick compiler and the small collector start it sooner
        cmd.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss1m"));
        cmd.add("-Dlogback.configurationFile=" + mainLogback());
        cmd.addAll(properties);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        return cmd;
    }

    /** This JVM's flags that allow native access and Unsafe memory access (the parent pom's worldflow.jvm.flags). */
    static List<String> accessFlags() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a ->
                        a.startsWith("--enable-native-access=") || a.startsWith("--sun-misc-unsafe-memory-access="))
                .toList();
    }

    /**
     * The CLI's own logback.xml: the test classpath also holds the tests' logback-test.xml (and world-aws's), which
     * logback would prefer.
     */
    static Path mainLogback() {
        try {
            return Path.of(WorldflowCli.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .resolve("logback.xml");
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static int exec(List<String> cmd, Map<String, String> env, Path out, Path err)
            throws IOException, InterruptedException {
        ProcessBuilder b = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        b.environment().putAll(env);
        Process p = b.start();
        p.getOutputStream().close(); // no input: a command that reads standard input sees its end
        try {
            if (!p.waitFor(LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("the command did not end within " + LIMIT + ": " + String.join(" ", cmd) + "\n"
                        + Files.readString(out, StandardCharsets.UTF_8) + Files.readString(err));
            }
            return p.exitValue();
        } finally {
            p.destroyForcibly();
        }
    }
}
