package io.worldflow.cli.internal;

import io.worldflow.cli.ExitCodes;
import io.worldflow.runtime.internal.WorldLoader;
import io.worldflow.spi.WorldProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** {@code worldflow worlds}: the worlds on the classpath (found as the runtime finds them) and their keys. */
@Command(
        name = "worlds",
        description =
                "The worlds on the classpath, which worldflow.world picks from, each with its configuration keys.")
public final class WorldsCommand extends CliCommand {

    @Mixin
    JsonFlag json;

    @Override
    public Integer call() {
        String configured =
                connection().viaServer() ? null : Connection.world(connection().config());
        List<WorldProvider> providers = new ArrayList<>(WorldLoader.providers());
        providers.sort(Comparator.comparing(WorldProvider::name));
        if (json.on) {
            List<Map<String, Object>> out = new ArrayList<>();
            for (WorldProvider p : providers) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", p.name());
                m.put("configured", p.name().equals(configured));
                m.put("keys", new TreeMap<>(p.configKeys()));
                out.add(m);
            }
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("configured", configured);
            body.put("worlds", out);
            JsonOutput.print(out(), body);
        } else {
            print(providers, configured);
        }
        if (configured != null && providers.stream().noneMatch(p -> p.name().equals(configured))) {
            throw new CliException(
                    ExitCodes.USAGE,
                    "unknown world '" + configured + "' (worldflow.world); worlds found on the classpath: "
                            + providers.stream().map(WorldProvider::name).toList());
        }
        return ExitCodes.OK;
    }

    private void print(List<WorldProvider> providers, String configured) {
        if (providers.isEmpty()) {
            out().println("no worlds on the classpath");
        }
        for (WorldProvider p : providers) {
            out().println(p.name() + (p.name().equals(configured) ? "  (configured: worldflow.world)" : ""));
            int width = p.configKeys().keySet().stream()
                    .mapToInt(String::length)
                    .max()
                    .orElse(0);
            p.configKeys().forEach((key, what) -> out().printf("  %-" + width + "s  %s%n", key, what));
        }
        out().flush();
    }
}
