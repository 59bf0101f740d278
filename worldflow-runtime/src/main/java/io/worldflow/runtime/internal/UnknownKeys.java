package io.worldflow.runtime.internal;

import io.worldflow.format.ChainKey;
import io.worldflow.runtime.PayloadKeys;
import io.worldflow.runtime.Queues;
import io.worldflow.runtime.RetentionOptions;
import io.worldflow.runtime.Worldflow;
import io.worldflow.runtime.WorldflowConfig;
import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Configuration keys that nothing reads. A misspelt key ({@code worldflow.worker.concurrancy}) would otherwise leave
 * its setting at the default without a word; it is named in a warning, with the key it most looks like. Only the
 * runtime's namespaces and the worlds' are checked: other modules (the dashboard) check their own.
 */
public final class UnknownKeys {

    private static final Logger log = LoggerFactory.getLogger(UnknownKeys.class);

    /** The keys the runtime itself reads. */
    public static final Set<String> RUNTIME = runtimeKeys();

    /**
     * Namespaces (the part after {@code worldflow.}) whose keys other modules read and check (the dashboard's), or
     * which are settings of this project's own tests, given as system properties.
     */
    private static final Set<String> OTHERS = Set.of("dashboard", "test", "containers");

    private UnknownKeys() {}

    private static Set<String> runtimeKeys() {
        Set<String> keys = new HashSet<>(WorldflowConfig.DEFAULTS.keySet());
        keys.addAll(List.of(
                WorldflowConfig.WORLD,
                Worldflow.SIGNAL_URL,
                Worldflow.SIGNAL_SECRET,
                Worldflow.SIGNAL_PREVIOUS_SECRETS,
                Worldflow.SIGNAL_MAX_BODY,
                PayloadKeys.KEYS,
                PayloadKeys.SCOPE,
                Queues.DECLARED_ONLY,
                RetentionOptions.KEEP_FOR,
                ChainKey.KEY,
                ChainKey.REQUIRED));
        return Set.copyOf(keys);
    }

    /** Logs a warning for each key of {@code config} that nothing reads; {@code declared} are the application's own. */
    public static void warn(WorldConfig config, Collection<String> declared) {
        check(config.asMap().keySet(), declared, WorldLoader.providers()).forEach(log::warn);
    }

    /** The warnings for {@code configured}, given the keys {@code declared} besides the runtime's and the worlds'. */
    static List<String> check(
            Collection<String> configured, Collection<String> declared, Collection<WorldProvider> worlds) {
        Set<String> known = new HashSet<>(RUNTIME);
        known.addAll(declared);
        Map<String, String> worldOf = new HashMap<>();
        for (WorldProvider w : worlds) {
            known.addAll(w.configKeys().keySet());
            worldOf.put(w.name(), w.name());
        }
        List<String> warnings = new ArrayList<>();
        for (String key : configured) {
            String namespace = namespace(key);
            if (known.contains(key) || OTHERS.contains(namespace)) {
                continue;
            }
            String whose = worldOf.containsKey(namespace)
                    ? "the " + namespace + " world does not read it"
                    : "neither Worldflow nor a world on the class path reads it";
            String warning = "configuration key " + key + " changes nothing: " + whose;
            String like = closest(key, known);
            warnings.add(like == null ? warning : warning + "; did you mean " + like + "?");
        }
        return warnings;
    }

    /**
     * The warnings for the keys of {@code config} in {@code namespace} ({@code worldflow.dashboard.}) that are not
     * among {@code known}: for a module that reads a namespace of its own.
     */
    public static List<String> check(WorldConfig config, String namespace, Collection<String> known) {
        List<String> warnings = new ArrayList<>();
        for (String key : config.asMap().keySet()) {
            if (key.startsWith(namespace) && !known.contains(key)) {
                String warning = "configuration key " + key + " changes nothing: no key of " + namespace + "* has"
                        + " that name";
                String like = closest(key, known);
                warnings.add(like == null ? warning : warning + "; did you mean " + like + "?");
            }
        }
        return warnings;
    }

    /** {@code worker} of {@code worldflow.worker.lease}; {@code retention} of {@code worldflow.retention}. */
    private static String namespace(String key) {
        String rest = key.substring("worldflow.".length());
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    /** The known key within a few typing mistakes of {@code key} (the first by name of the nearest), if one is. */
    static String closest(String key, Collection<String> known) {
        int allowed = Math.max(2, key.length() / 8);
        String best = null;
        int bestDistance = allowed + 1;
        for (String k : known.stream().sorted().toList()) {
            int d = distance(key, k, bestDistance);
            if (d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Levenshtein distance, or {@code limit} or more once it is sure to reach it. */
    private static int distance(String a, String b, int limit) {
        if (Math.abs(a.length() - b.length()) >= limit) {
            return limit;
        }
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            int rowMin = current[0];
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
                rowMin = Math.min(rowMin, current[j]);
            }
            if (rowMin >= limit) {
                return limit;
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
