package io.worldflow.examples;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A main class of this module run as its own JVM, on this test JVM's classpath and with its JVM flags, the way
 * a user's command runs it: it must end by itself. When it does not end in time, its threads are dumped into the
 * failure, so the one that keeps it alive is named.
 */
final class ChildJvm {

    /** What the JDK prints when a library calls a restricted method without native access being enabled. */
    static final String RESTRICTED_METHOD = "WARNING: A restricted method";
    /** What the JDK prints when a library calls a terminally deprecated sun.misc.Unsafe memory-access method. */
    static final String UNSAFE = "sun.misc.Unsafe";

    private ChildJvm() {}

    /** How a child JVM ended: its exit status and everything it printed (standard output and error). */
    record Result(int exitValue, String output) {}

    /**
     * The flags of this JVM that allow native access and {@code sun.misc.Unsafe} memory access: the parent pom's
     * {@code worldflow.jvm.flags}, which surefire puts in this JVM's command line. A child gets the same.
     */
    static List<String> accessFlags() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a ->
                        a.startsWith("--enable-native-access=") || a.startsWith("--sun-misc-unsafe-memory-access="))
                .toList();
    }

    /** {@code java <access flags> <properties> -cp <this classpath> mainClass args}. */
    static List<String> command(List<String> properties, Class<?> mainClass, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(accessFlags());
        cmd.addAll(properties);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass.getName());
        cmd.addAll(args);
        return cmd;
    }

    /** Waits until {@code file} has {@code lines} lines, while {@code p} still runs (90 seconds at most). */
    static void awaitLines(Path file, int lines, Process p) throws IOException, InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < end) {
            if (!p.isAlive()) {
                throw new AssertionError(
                        "the process ended (exit " + p.exitValue() + ") before writing " + lines + " lines to " + file);
            }
            if (Files.exists(file) && Files.readAllLines(file).size() >= lines) {
                return;
            }
            Thread.sleep(1);
        }
        throw new AssertionError("the process did not write " + lines + " lines to " + file + " in time");
    }

    /** Runs the command, its output to {@code out}, and waits at most {@code limit} for it to end by itself. */
    static Result run(List<String> cmd, Path out, Duration limit) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        try {
            if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                String threads = threadDump(p.pid());
                throw new AssertionError("the process did not exit within " + limit + "; its threads:\n" + threads
                        + "\nits output:\n" + Files.readString(out));
            }
            return new Result(p.exitValue(), Files.readString(out));
        } finally {
            p.destroyForcibly();
        }
    }

    private static String threadDump(long pid) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process dump = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Thread.print")
                .redirectErrorStream(true)
                .start();
        String text = new String(dump.getInputStream().readAllBytes());
        dump.waitFor(30, TimeUnit.SECONDS);
        return text;
    }
}
