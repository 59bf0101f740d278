package io.worldflow.world.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * A statement written once with named parameters ({@code :runId}) and run as a plain JDBC prepared statement:
 * each {@code :name} becomes a {@code ?}, and {@link Call#set} binds every place the name stands. Quoted text and
 * PostgreSQL's {@code ::type} casts are left alone.
 *
 * <p>A null is sent with the JDBC type the parameter had when it last held a value (or the one given), else untyped
 * for the database to infer from where it stands (a bare {@code :x IS NULL} needs a cast). Keeping one type per
 * parameter matters on PostgreSQL: pgjdbc keeps a statement prepared on the server only while its parameter types
 * stay the same, so a parameter sent now typed, now untyped would have the server parse and plan it again.
 */
public final class Sql {

    /** The SQL with a {@code ?} per parameter. */
    final String text;
    /** The parameter name at each placeholder. */
    private final String[] names;
    /** The JDBC type at each placeholder, for nulls: given, or learnt from the last value (a benign race). */
    private final int[] types;

    private Sql(String text, String[] names, int[] types) {
        this.text = text;
        this.names = names;
        this.types = types;
    }

    /** The statement {@code sql}, its nulls untyped. */
    public static Sql of(String sql) {
        return of(sql, name -> Types.NULL);
    }

    /** The statement {@code sql}, each parameter's nulls of the JDBC type {@code typeOf} gives its name. */
    public static Sql of(String sql, ToIntFunction<String> typeOf) {
        StringBuilder text = new StringBuilder(sql.length());
        List<String> names = new ArrayList<>();
        char quote = 0;
        for (int i = 0; i < sql.length(); i++) {
            char ch = sql.charAt(i);
            char next = i + 1 < sql.length() ? sql.charAt(i + 1) : 0;
            if (quote != 0) {
                quote = ch == quote ? 0 : quote;
                text.append(ch);
            } else if (ch == '\'' || ch == '"') {
                quote = ch;
                text.append(ch);
            } else if (ch == ':' && next == ':') {
                text.append("::");
                i++;
            } else if (ch == ':' && Character.isJavaIdentifierStart(next)) {
                int end = i + 1;
                while (end < sql.length() && Character.isJavaIdentifierPart(sql.charAt(end))) {
                    end++;
                }
                names.add(sql.substring(i + 1, end));
                text.append('?');
                i = end - 1;
            } else {
                text.append(ch);
            }
        }
        return new Sql(
                text.toString(),
                names.toArray(String[]::new),
                names.stream().mapToInt(typeOf).toArray());
    }

    /** This statement behind {@code prefix}, such as {@code EXPLAIN}, with the same parameters. */
    public Sql prefixed(String prefix) {
        return new Sql(prefix + text, names, types.clone());
    }

    @Override
    public String toString() {
        return text;
    }

    /** Reads the current row of a result. */
    @FunctionalInterface
    public interface Row<T> {
        T map(ResultSet rs) throws SQLException;
    }

    /** One execution on a {@link Tx}: set every parameter, then run it, then close it. */
    public final class Call implements AutoCloseable {

        private final Tx tx;
        private final PreparedStatement ps;
        private final BitSet bound = new BitSet(names.length);

        Call(Tx tx, PreparedStatement ps) {
            this.tx = tx;
            this.ps = ps;
        }

        /** Sets every placeholder of the parameter {@code name}. */
        public Call set(String name, Object value) throws SQLException {
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

        /** Runs the query; the caller closes the result set and then this call. */
        public ResultSet query() throws SQLException {
            checkBound();
            return ps.executeQuery();
        }

        /** Runs the statement and closes this call: how many rows it changed. */
        public int update() throws SQLException {
            try {
                checkBound();
                return ps.executeUpdate();
            } finally {
                close();
            }
        }

        /** Runs the query and closes this call: its first row, mapped, or empty when it returns none. */
        public <T> Optional<T> one(Row<T> row) throws SQLException {
            try (ResultSet rs = query()) {
                return rs.next() ? Optional.of(row.map(rs)) : Optional.empty();
            } finally {
                close();
            }
        }

        /** Runs the query and closes this call: every row, mapped, in order. */
        public <T> List<T> list(Row<T> row) throws SQLException {
            List<T> out = new ArrayList<>();
            each(rs -> out.add(row.map(rs)));
            return out;
        }

        /** Runs the query, hands each row to {@code action} in order, and closes this call. */
        public void each(Row<?> action) throws SQLException {
            try (ResultSet rs = query()) {
                while (rs.next()) {
                    action.map(rs);
                }
            } finally {
                close();
            }
        }

        /** Adds the parameters set to the batch; the next row's are set afresh. */
        public void addBatch() throws SQLException {
            checkBound();
            ps.addBatch();
            bound.clear();
        }

        public int[] executeBatch() throws SQLException {
            return ps.executeBatch();
        }

        /** Closes the statement, unless its connection keeps it for the next call. */
        @Override
        public void close() throws SQLException {
            tx.done(ps);
        }

        private void bind(int i, Object value) throws SQLException {
            int index = i + 1;
            switch (value) {
                case null -> ps.setNull(index, types[i]);
                case String s -> {
                    ps.setString(index, s);
                    types[i] = Types.VARCHAR;
                }
                case Long l -> {
                    ps.setLong(index, l);
                    types[i] = Types.BIGINT;
                }
                case Integer n -> {
                    ps.setInt(index, n);
                    types[i] = Types.INTEGER;
                }
                case Boolean b -> {
                    ps.setBoolean(index, b);
                    types[i] = Types.BOOLEAN;
                }
                case byte[] bytes -> {
                    ps.setBytes(index, bytes);
                    types[i] = Types.BINARY;
                }
                case Long[] array -> ps.setArray(index, tx.connection().createArrayOf("int8", array));
                case String[] array -> ps.setArray(index, tx.connection().createArrayOf("text", array));
                default ->
                    throw new IllegalArgumentException(
                            "cannot bind a " + value.getClass().getName() + " to :" + names[i]);
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
