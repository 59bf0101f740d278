package io.worldflow.world.postgres;

import io.worldflow.world.jdbc.Sql;
import io.worldflow.world.jdbc.Tx;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.Query;
import org.jooq.SQLDialect;
import org.jooq.conf.ParamType;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

import java.sql.Types;
import java.util.Map;

import static org.jooq.impl.DSL.function;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.param;

/**
 * jOOQ builds this world's longer statements (names qualified and quoted for the configured schema and prefix,
 * dialect POSTGRES); each is rendered once, with named parameters ({@code DSL.param("runId", String.class)}), and
 * runs as the shared layer's {@link Sql}: a call then costs no rendering, and pgjdbc keeps the statement prepared
 * on each connection.
 */
final class Jooq {

    private static final DSLContext RENDERER = DSL.using(SQLDialect.POSTGRES, new Settings()
            .withParamType(ParamType.NAMED)
            .withRenderFormatted(false));
    private static final Settings RUNNING = new Settings()
            .withExecuteLogging(false)
            .withDiagnosticsLogging(false)
            .withFetchWarnings(false)
            .withRenderFormatted(false);

    private Jooq() {
    }

    /** {@code query}, whose parameters must all be named, rendered once. */
    static Sql sql(Query query) {
        String rendered = RENDERER.renderNamedParams(query);
        Map<String, Param<?>> params = query.getParams();
        // jOOQ lists the parameters it finds at the top of the query (not those inside ANY(...)); for the others a
        // null is sent untyped, and the server infers its type from where it stands
        return Sql.of(rendered, name -> {
            Param<?> param = params.get(name);
            return param == null || param.getDataType().isArray() ? Types.OTHER : param.getDataType().getSQLType();
        });
    }

    /** jOOQ on the connection of {@code tx}, for a statement built per call. */
    static DSLContext dsl(Tx tx) {
        return DSL.using(tx.connection(), SQLDialect.POSTGRES, RUNNING);
    }

    /**
     * {@code pg_notify(:channel, :due)}: to select inside a statement that makes a turn due, with the
     * channel and the due instant in epoch microseconds as text ({@link Database#announcement}).
     */
    static Field<Object> announce() {
        return function("pg_notify", Object.class, param("channel", String.class), param("due", String.class));
    }

    /**
     * {@code pg_notify(<end channel>, :endedPayload)}: selected by a write that finishes runs, naming them
     * ({@link WriteColumns#endedPayload}); delivered to listeners when the write commits.
     */
    static Field<Object> endNotice(String endChannel) {
        return function("pg_notify", Object.class, inline(endChannel), param("endedPayload", String.class));
    }

    /** {@code pg_notify(:channel, <micros as text>)}. */
    static Field<Object> announce(Field<Long> micros) {
        return function("pg_notify", Object.class, param("channel", String.class), micros.cast(String.class));
    }
}
