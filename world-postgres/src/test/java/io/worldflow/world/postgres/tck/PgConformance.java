package io.worldflow.world.postgres.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import io.worldflow.tck.WorldConformanceKit;
import io.worldflow.world.jdbc.LogRowTamper;
import io.worldflow.world.postgres.PostgresWorldProvider;
import io.worldflow.world.postgres.TestPostgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The conformance kit on the Postgres world, one schema per storage id, on the server a subclass names: the tests'
 * shared one ({@link PgConformanceTest}) or a container's ({@link PgConformanceOnContainers}).
 */
abstract class PgConformance extends WorldConformanceKit {

    /** The server every storage of this run lives on. */
    protected abstract TestPostgres server();

    @Override
    protected WorldProvider provider() {
        return new PostgresWorldProvider();
    }

    @Override
    protected WorldConfig config(String storageId) {
        return server().config(schema(storageId));
    }

    @Override
    protected boolean leasesAtCreation() {
        return true;
    }

    /** Every row of every table in the storage's schema, as Postgres writes a row as text. */
    @Override
    protected String storedText(String storageId) throws SQLException {
        String schema = schema(storageId);
        StringBuilder out = new StringBuilder();
        try (Connection c = server().connect();
                PreparedStatement tables =
                        c.prepareStatement("SELECT table_name FROM information_schema.tables WHERE table_schema = ?")) {
            tables.setString(1, schema);
            List<String> names = new ArrayList<>();
            try (ResultSet rs = tables.executeQuery()) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
            for (String table : names) {
                try (Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery("SELECT t::text FROM \"" + schema + "\".\"" + table + "\" t")) {
                    while (rs.next()) {
                        out.append(rs.getString(1)).append('\n');
                    }
                }
            }
        }
        return out.toString();
    }

    @Override
    protected void tamper(String storageId, String runId, Tamper how, long seq) throws SQLException {
        String schema = schema(storageId);
        try (Connection c = server().connect()) {
            new LogRowTamper(c, schema + ".wf_runs", schema + ".wf_event_log").apply(how.name(), runId, seq);
        }
    }

    static String schema(String storageId) {
        return storageId.toLowerCase(Locale.ROOT);
    }
}
