package io.worldflow.world.jdbc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.worldflow.SearchAttributes;
import io.worldflow.WorldException;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.SearchValues;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * A run's search attributes in the SQL worlds: its current ones as a JSON object (name to stored value) in its
 * {@code runs} row, which every read of the row returns, and one {@code run_attributes} row each, with the run's
 * creation time, which a search reads newest first by name and value ({@link RunFilter}). Both are written with the
 * write that creates the run or applies the append that changes them, so a refused append changes neither.
 */
public final class SearchIndex {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> MAP = new TypeReference<>() {};

    private final Sql insert;
    private final Sql upsert;
    private final Sql delete;
    private final Sql project;

    public SearchIndex(SqlDialect d) {
        this.insert = Sql.of(d.tables("INSERT INTO {run_attributes} (run_id, name, value, created_at)"
                + " VALUES (:runId, :name, :value, :createdAt)"));
        this.upsert = Sql.of(d.tables("""
                INSERT INTO {run_attributes} (run_id, name, value, created_at)
                SELECT run_id, :name, :value, created_at FROM {runs} WHERE run_id = :runId
                ON CONFLICT (run_id, name) DO UPDATE SET value = excluded.value"""));
        this.delete = Sql.of(d.tables("DELETE FROM {run_attributes} WHERE run_id = :runId AND name = :name"));
        this.project = Sql.of(d.tables("UPDATE {runs} SET search_attributes = (SELECT "
                + d.jsonObjectAgg("name", "value") + " FROM {run_attributes} a WHERE a.run_id = :runId)"
                + " WHERE run_id = :runId"));
    }

    /** The run's attributes as its row keeps them: a JSON object, or null for none. */
    public static String json(SearchAttributes attributes) {
        if (attributes.isEmpty()) {
            return null;
        }
        try {
            return JSON.writeValueAsString(SearchValues.encode(attributes));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A row's attributes read back; null, {@code {}} or no column for none. */
    static SearchAttributes read(String world, String runId, String json) {
        if (json == null || json.equals("{}")) {
            return SearchAttributes.empty();
        }
        try {
            return SearchValues.decode(JSON.readValue(json, MAP));
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new WorldException(
                    world + " world: run '" + runId + "' has search attributes that cannot be read: " + json, false, e);
        }
    }

    /** The index rows of a run just created in {@code tx}, when it has attributes (its row holds them already). */
    public void created(Tx tx, NewRun run) throws SQLException {
        if (run.searchAttributes().isEmpty()) {
            return;
        }
        try (Sql.Call call = tx.call(insert)) {
            for (Map.Entry<String, String> a :
                    SearchValues.encode(run.searchAttributes()).entrySet()) {
                call.set("runId", run.runId())
                        .set("name", a.getKey())
                        .set("value", a.getValue())
                        .set("createdAt", Micros.of(run.createdAt()))
                        .addBatch();
            }
            call.executeBatch();
        }
    }

    /**
     * In {@code tx}, after the appends: the attributes that those which went through change, in order.
     *
     * @param applied whether each append went through
     */
    void changed(Tx tx, List<EncodedAppend> appends, List<Boolean> applied) throws SQLException {
        for (int i = 0; i < appends.size(); i++) {
            Map<String, String> changes = appends.get(i).searchChanges();
            if (changes.isEmpty() || !applied.get(i)) {
                continue;
            }
            String runId = appends.get(i).append().runId();
            for (Map.Entry<String, String> c : changes.entrySet()) {
                if (c.getValue() == null) {
                    tx.call(delete).set("runId", runId).set("name", c.getKey()).update();
                } else {
                    tx.call(upsert)
                            .set("runId", runId)
                            .set("name", c.getKey())
                            .set("value", c.getValue())
                            .update();
                }
            }
            tx.call(project).set("runId", runId).update();
        }
    }
}
