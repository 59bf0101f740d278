package io.worldflow.world.postgres;

import org.jooq.DSLContext;
import org.jooq.Param;
import org.jooq.Query;
import org.jooq.SQLDialect;
import org.jooq.conf.ParamType;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * A statement built with jOOQ (names qualified and quoted for the configured schema and prefix, dialect
 * POSTGRES) and rendered once, with named parameters ({@code DSL.param("runId", String.class)}); run as a
 * plain JDBC prepared statement. A call then costs no rendering, and pgjdbc keeps the statement prepared on
 * each connection.
 */
final class Sql {

    private static final DSLContext RENDERER = DSL.using(SQLDialect.POSTGRES, new Settings()
            .withParamType(ParamType.NAMED)
            .withRenderFormatted(false));

    /** The SQL with a {@code ?} per parameter. */
    final String text;
    /** The parameter name at each placeholder. */
    private final String[] names;
    /** The JDBC type at each placeholder (for nulls). */
    private final int[] types;

    private Sql(String text, String[] names, int[] types) {
        this.text = text;
        this.names = names;
        this.types = types;
    }

    /** Renders {@code query}, whose parameters must all be named. */
    static Sql of(Query query) {
        String rendered = RENDERER.renderNamedParams(query);
        Map<String, Param<?>> params = query.getParams();
        StringBuilder text = new StringBuilder(rendered.length());
        List<String> names = new ArrayList<>();
        char quote = 0;
        for (int i = 0; i < rendered.length(); i++) {
            char ch = rendered.charAt(i);
            if (quote != 0) {
                quote = ch == quote ? 0 : quote;
                text.append(ch);
            } else if (ch == '\'' || ch == '"') {
                quote = ch;
                text.append(ch);
            } else if (ch == ':' && i + 1 < rendered.length() && Character.isJavaIdentifierStart(rendered.charAt(i + 1))) {
                int end = i + 1;
                while (end < rendered.length() && Character.isJavaIdentifierPart(rendered.charAt(end))) {
                    end++;
                }
                names.add(rendered.substring(i + 1, end));
                text.append('?');
                i = end - 1;
            } else {
                text.append(ch);
            }
        }
        int n = names.size();
        int[] types = new int[n];
        for (int i = 0; i < n; i++) {
            // jOOQ lists the parameters it finds at the top of the query (not those inside ANY(...)); for the
            // others a null is sent untyped, and the server infers its type from where it stands
            Param<?> param = params.get(names.get(i));
            types[i] = param == null || param.getDataType().isArray() ? Types.OTHER : param.getDataType().getSQLType();
        }
        return new Sql(text.toString(), names.toArray(String[]::new), types);
    }

    /** This statement behind {@code prefix}, such as {@code EXPLAIN}, with the same parameters. */
    Sql prefixed(String prefix) {
        return new Sql(prefix + text, names, types);
    }

    /** A call of this statement on {@code connection}; set every parameter, then run it, then close it. */
    Call on(Connection connection) throws SQLException {
        return new Call(connection, connection.prepareStatement(text));
    }

    @Override
    public String toString() {
        return text;
    }

    /** One execution: parameters are set by name. */
    final class Call implements AutoCloseable {

        private final Connection connection;
        private final PreparedStatement ps;
        private final BitSet bound = new BitSet(names.length);

        private Call(Connection connection, PreparedStatement ps) {
            this.connection = connection;
            this.ps = ps;
        }

        /** Sets every placeholder of the parameter {@code name}. */
        Call set(String name, Object value) throws SQLException {
            boolean found = false;
            for (int i = 0; i < names.length; i++) {
                if (names[i].equals(name)) {
                    bind(i, value);
                    bound.set(i);
                    found = true;
                }
            }
            if (!found) {
                throw new IllegalArgumentException("no parameter :" + name + " in " + text);
            }
            return this;
        }

        ResultSet query() throws SQLException {
            checkBound();
            return ps.executeQuery();
        }

        int update() throws SQLException {
            checkBound();
            return ps.executeUpdate();
        }

        @Override
        public void close() throws SQLException {
            ps.close();
        }

        private void bind(int i, Object value) throws SQLException {
            int index = i + 1;
            switch (value) {
                case null -> ps.setNull(index, types[i]);
                case String s -> ps.setString(index, s);
                case Long l -> ps.setLong(index, l);
                case Integer n -> ps.setInt(index, n);
                case Boolean b -> ps.setBoolean(index, b);
                case Long[] array -> ps.setArray(index, connection.createArrayOf("int8", array));
                case String[] array -> ps.setArray(index, connection.createArrayOf("text", array));
                default -> throw new IllegalArgumentException("cannot bind a " + value.getClass().getName()
                        + " to :" + names[i]);
            }
        }

        private void checkBound() {
            if (bound.cardinality() != names.length) {
                List<String> missing = new ArrayList<>();
                for (int i = bound.nextClearBit(0); i < names.length; i = bound.nextClearBit(i + 1)) {
                    missing.add(names[i]);
                }
                throw new IllegalStateException("parameters not set: " + missing + " in " + text);
            }
        }
    }
}
