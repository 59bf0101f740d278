package io.worldflow.spring.internal;

import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The connection settings of the application's {@link DataSource}, for the Postgres world. That world opens its own
 * pool from a URL (and holds one connection apart for {@code LISTEN}), so it is given the application's database by its
 * URL and credentials, read from Hikari's pool when that is the data source, else from {@code spring.datasource.*},
 * else from the driver's metadata (without a password: the URL must carry it).
 */
public final class ApplicationDatabase {

    public static final String URL = "worldflow.postgres.url";
    public static final String USER = "worldflow.postgres.user";
    public static final String PASSWORD = "worldflow.postgres.password";

    private static final boolean HIKARI = ClassUtils.isPresent("com.zaxxer.hikari.HikariDataSource", null);

    private ApplicationDatabase() {}

    /** The Postgres world's {@code url}, {@code user} and {@code password} keys, or empty when it is no PostgreSQL. */
    public static Map<String, String> settings(DataSource dataSource, Environment environment) {
        Map<String, String> out = new LinkedHashMap<>();
        Optional<Map<String, String>> hikari = HIKARI ? HikariSettings.of(dataSource) : Optional.empty();
        if (hikari.isPresent()) {
            out.putAll(hikari.get());
        } else if (environment.getProperty("spring.datasource.url") != null) {
            put(out, URL, environment.getProperty("spring.datasource.url"));
            put(out, USER, environment.getProperty("spring.datasource.username"));
            put(out, PASSWORD, environment.getProperty("spring.datasource.password"));
        } else {
            try (Connection c = dataSource.getConnection()) {
                DatabaseMetaData meta = c.getMetaData();
                put(out, URL, meta.getURL());
                put(out, USER, meta.getUserName());
            } catch (SQLException e) {
                throw new IllegalStateException(
                        "cannot read the URL of the application's DataSource for the postgres world: " + e.getMessage(),
                        e);
            }
        }
        String url = out.get(URL);
        return url != null && url.startsWith("jdbc:postgresql:") ? out : Map.of();
    }

    static void put(Map<String, String> out, String key, String value) {
        if (value != null) {
            out.put(key, value);
        }
    }
}
