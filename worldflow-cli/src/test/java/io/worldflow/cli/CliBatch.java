package io.worldflow.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A child JVM that runs several command lines one after another, each as {@code main} would run it, with its own
 * standard output and error captured (library logging included): a JVM start costs a second, a command a few
 * milliseconds. Reads {@code [[args…], …]} from the file named first, writes {@code [{exit, out, err}, …]} to the
 * second.
 */
public final class CliBatch {

    private CliBatch() {}

    public static void main(String[] args) throws Exception {
        ObjectMapper json = new ObjectMapper();
        List<List<String>> commands = json.readValue(Path.of(args[0]).toFile(), new TypeReference<>() {});
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        List<CliResult> results = new ArrayList<>();
        for (List<String> command : commands) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int exit;
            try {
                exit = WorldflowCli.execute(command.toArray(String[]::new));
            } finally {
                System.setOut(stdout);
                System.setErr(stderr);
            }
            results.add(
                    new CliResult(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)));
        }
        json.writeValue(Path.of(args[1]).toFile(), results);
    }
}
