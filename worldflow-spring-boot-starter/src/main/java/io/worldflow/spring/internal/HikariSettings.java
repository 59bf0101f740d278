package io.worldflow.spring.internal;

import com.zaxxer.hikari.HikariDataSource;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/** Reads a Hikari pool's settings; apart, so that nothing loads Hikari's classes where Hikari is absent. */
final class HikariSettings {

    private HikariSettings() {}

    static Optional<Map<String, String>> of(DataSource dataSource) {
        HikariDataSource hikari;
        try {
            if (dataSource instanceof HikariDataSource h) {
                hikari = h;
            } else if (dataSource.isWrapperFor(HikariDataSource.class)) {
                hikari = dataSource.unwrap(HikariDataSource.class);
            } else {
                return Optional.empty();
            }
        } catch (SQLException e) {
            return Optional.empty();
        }
        if (hikari.getJdbcUrl() == null) {
            return Optional.empty();
        }
        Map<String, String> out = new LinkedHashMap<>();
        ApplicationDatabase.put(out, ApplicationDatabase.URL, hikari.getJdbcUrl());
        ApplicationDatabase.put(out, ApplicationDatabase.USER, hikari.getUsername());
        ApplicationDatabase.put(out, ApplicationDatabase.PASSWORD, hikari.getPassword());
        return Optional.of(out);
    }
}
