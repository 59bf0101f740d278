package io.worldflow.world.jdbc;

import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.spi.Lease;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SqlTest {

    private Connection c;

    @BeforeEach
    void open() throws SQLException {
        c = DriverManager.getConnection("jdbc:sqlite::memory:");
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE runs (run_id TEXT PRIMARY KEY, workflow TEXT, status TEXT, held TEXT,"
                    + " created_at INTEGER)");
        }
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    @Test
    void namedParametersBecomePlaceholdersAndQuotesAndCastsStayAsTheyAre() {
        Sql sql = Sql.of("SELECT ':not', \"a:b\", x::bigint FROM t WHERE a = :a AND b = :b OR a = :a");

        assertThat(sql.toString()).isEqualTo("SELECT ':not', \"a:b\", x::bigint FROM t WHERE a = ? AND b = ? OR a = ?");
    }

    @Test
    void aNameSetOnceBindsEveryPlaceWhereItStands() throws SQLException {
        insert("r1", "w", "PENDING", null, 10);
        Sql sql = Sql.of("SELECT run_id FROM runs WHERE run_id = :id AND workflow <> :id");

        try (Sql.Call call = new Tx(c, null).call(sql).set("id", "r1");
                ResultSet rs = call.query()) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("r1");
        }
    }

    @Test
    void aCallRunToItsEndMapsTheRowsAndClosesItsStatement() throws SQLException {
        insert("r1", "w", "PENDING", null, 10);
        insert("r2", "w", "WAITING", null, 20);
        Tx tx = new Tx(c, null);
        Sql byWorkflow = Sql.of("SELECT run_id FROM runs WHERE workflow = :w ORDER BY created_at");

        Sql.Call list = tx.call(byWorkflow).set("w", "w");
        assertThat(list.list(rs -> rs.getString(1))).containsExactly("r1", "r2");
        assertThatThrownBy(list::query).isInstanceOf(SQLException.class); // its statement is closed
        assertThat(tx.call(byWorkflow).set("w", "w").one(rs -> rs.getString(1))).contains("r1");
        assertThat(tx.call(byWorkflow).set("w", "none").one(rs -> rs.getString(1)))
                .isEmpty();
        List<String> seen = new ArrayList<>();
        tx.call(byWorkflow).set("w", "w").each(rs -> seen.add(rs.getString(1)));
        assertThat(seen).containsExactly("r1", "r2");

        Sql.Call update = tx.call(Sql.of("UPDATE runs SET held = :h WHERE workflow = :w"))
                .set("h", "x")
                .set("w", "w");
        assertThat(update.update()).isEqualTo(2);
        assertThatThrownBy(update::update).isInstanceOf(SQLException.class);
    }

    @Test
    void aParameterLeftUnsetOrUnknownIsRefusedByName() throws SQLException {
        Sql sql = Sql.of("SELECT run_id FROM runs WHERE run_id = :id AND workflow = :workflow");
        Tx tx = new Tx(c, null);

        try (Sql.Call call = tx.call(sql).set("id", "r1")) {
            assertThatThrownBy(call::query)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("parameters not set: [workflow]");
            assertThatThrownBy(() -> call.set("wrkflow", "w"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no parameter :wrkflow");
        }
    }

    @Test
    void withACacheTheStatementOutlivesItsCallAndIsReused() throws SQLException {
        Map<String, PreparedStatement> cache = new HashMap<>();
        Tx tx = new Tx(c, cache);
        Sql sql = Sql.of("SELECT COUNT(*) FROM runs WHERE run_id = :id");
        try (Sql.Call call = tx.call(sql).set("id", "x");
                ResultSet rs = call.query()) {
            rs.next();
        }
        PreparedStatement kept = cache.get(sql.toString());
        assertThat(kept.isClosed()).isFalse();

        try (Sql.Call call = new Tx(c, cache).call(sql).set("id", "y");
                ResultSet rs = call.query()) {
            rs.next();
        }
        assertThat(cache).hasSize(1).containsValue(kept);
    }

    @Test
    void aRunFilterFindsALiteralPrefixTheHeldRunsAndATimeRange() throws SQLException {
        insert("a_1", "w", "PENDING", null, 10);
        insert("ab1", "w", "COMPLETED", "{}", 20);
        insert("a_2", "v", "FAILED", "{}", 30);
        insert("b", "w", "PENDING", null, 40);

        assertThat(ids(RunQuery.all().withIdPrefix("a_"))).containsExactly("a_1", "a_2");
        assertThat(ids(RunQuery.all().withIdPrefix("A_"))).isEmpty();
        assertThat(ids(RunQuery.all().withHeld(true))).containsExactly("a_2", "ab1");
        assertThat(ids(RunQuery.all().withWorkflow("w").withStatuses(RunStatus.PENDING)))
                .containsExactly("a_1", "b");
        assertThat(ids(RunQuery.all().withCreated(Instant.EPOCH.plusNanos(20_000), Instant.EPOCH.plusNanos(40_000))))
                .containsExactly("a_2", "ab1");
    }

    @Test
    void aNullIsSentWithTheTypeItsParameterLastHad() throws SQLException {
        List<String> calls = new ArrayList<>();
        PreparedStatement recording = (PreparedStatement) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
                    if (method.getName().startsWith("set")) {
                        calls.add(
                                method.getName() + args[0] + (method.getName().equals("setNull") ? ":" + args[1] : ""));
                    }
                    return method.getReturnType() == int.class ? 0 : null;
                });
        Connection connection = (Connection) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> recording);
        Sql sql = Sql.of("UPDATE t SET a = :a, b = :b");
        Tx tx = new Tx(connection, null);

        tx.call(sql).set("a", null).set("b", null).update();
        tx.call(sql).set("a", 7L).set("b", "x").update();
        tx.call(sql).set("a", null).set("b", null).update();

        assertThat(calls)
                .containsExactly(
                        "setNull1:" + Types.NULL,
                        "setNull2:" + Types.NULL,
                        "setLong1",
                        "setString2",
                        "setNull1:" + Types.BIGINT,
                        "setNull2:" + Types.VARCHAR);
    }

    @Test
    void anIdPrefixUpperBoundIsTheNextStringInCodePointOrder() {
        assertThat(RunFilter.upperBound("order-")).isEqualTo("order.");
        assertThat(RunFilter.upperBound("a")).isEqualTo("b");
        assertThat(RunFilter.upperBound("a\uD7FF")).isEqualTo("a\uE000");
        assertThat(RunFilter.upperBound("a" + new String(Character.toChars(Character.MAX_CODE_POINT))))
                .isEqualTo("b");
        assertThat(RunFilter.upperBound(new String(Character.toChars(Character.MAX_CODE_POINT))))
                .isNull();
    }

    private List<String> ids(RunQuery query) throws SQLException {
        RunFilter filter = RunFilter.of(SQLITE, query, true, null);
        List<String> out = new ArrayList<>();
        try (Sql.Call call = filter.bind(
                        new Tx(c, null).call(Sql.of("SELECT run_id FROM runs" + filter.where() + " ORDER BY run_id")));
                ResultSet rs = call.query()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private void insert(String id, String workflow, String status, String held, long createdAt) throws SQLException {
        try (Sql.Call call = new Tx(c, null)
                .call(Sql.of("INSERT INTO runs VALUES (:id, :w, :s, :h, :at)"))
                .set("id", id)
                .set("w", workflow)
                .set("s", status)
                .set("h", held)
                .set("at", createdAt)) {
            call.update();
        }
    }

    private static final SqlDialect SQLITE = new SqlDialect() {
        @Override
        public String world() {
            return "test";
        }

        @Override
        public String table(String name) {
            return name;
        }

        @Override
        public String lockRow() {
            return "";
        }

        @Override
        public String skipLocked() {
            return "";
        }

        @Override
        public boolean codePointOrder() {
            return true;
        }

        @Override
        public String jsonObjectAgg(String key, String value) {
            return "json_group_object(" + key + ", " + value + ")";
        }

        @Override
        public String inTexts(String param) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Object texts(Collection<String> values) {
            throw new UnsupportedOperationException();
        }

        @Override
        public String newLeaseToken() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void makeDue(Tx tx, String runId, String queue, int priority, Instant at, Instant now) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void endTurn(Tx tx, Lease lease, Instant wakeAt) {
            throw new UnsupportedOperationException();
        }
    };
}
