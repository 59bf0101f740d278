package io.worldflow.examples;

import io.worldflow.RunQuery;
import io.worldflow.runtime.WorldMigration;
import io.worldflow.runtime.Worldflow;

import java.util.Map;

/**
 * Moves every run of a local world's file to the world another configuration names (Postgres, AWS): the runs keep
 * their whole history and go on there where they stopped. No worker may run on either world meanwhile.
 */
public final class MoveRuns {

    private MoveRuns() {}

    // tag::migrate[]
    public static WorldMigration.Report move(String localFile, Map<String, String> target) {
        try (Worldflow from = Worldflow.builder()
                        .property("worldflow.local.path", localFile)
                        .build();
                Worldflow to = Worldflow.builder().properties(target).build()) {
            return WorldMigration.between(from.world(), to.world())
                    .onProgress(p -> System.out.printf("%d runs looked at, %d copied%n", p.examined(), p.copied()))
                    .copy(RunQuery.all());
        }
    }
    // end::migrate[]

    /** {@code MoveRuns dev.db jdbc:postgresql://localhost/app}: from the local file to that Postgres database. */
    public static void main(String[] args) {
        WorldMigration.Report report =
                move(args[0], Map.of("worldflow.world", "postgres", "worldflow.postgres.url", args[1]));
        System.out.println(report.copied() + " copied, " + report.alreadyThere() + " there already, "
                + report.refused().size() + " refused " + report.refused());
    }
}
