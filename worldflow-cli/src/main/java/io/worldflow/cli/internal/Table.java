package io.worldflow.cli.internal;

import java.io.PrintWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** A text table for a terminal: a header line, then one line per row, columns padded to their widest cell. */
final class Table {

    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    Table(String... headers) {
        this.headers = List.of(headers);
    }

    Table row(Object... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException("a row of " + headers.size() + " cells, not " + cells.length);
        }
        rows.add(Arrays.stream(cells).map(Table::cell).toList());
        return this;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    void print(PrintWriter out) {
        int[] widths = new int[headers.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = headers.get(i).length();
            for (List<String> row : rows) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        line(out, headers, widths);
        for (List<String> row : rows) {
            line(out, row, widths);
        }
        out.flush();
    }

    private static void line(PrintWriter out, List<String> cells, int[] widths) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            String c = cells.get(i);
            b.append(c);
            if (i < cells.size() - 1) {
                b.append(" ".repeat(widths[i] - c.length() + 2));
            }
        }
        out.println(b.toString().stripTrailing());
    }

    /** A value as {@link #cell} gives it, but instants exactly: a fire time names the run it starts. */
    static String exact(Object value) {
        return switch (value) {
            case null -> "-";
            case Instant t -> t.toString();
            case List<?> l when !l.isEmpty() -> l.stream().map(Table::exact).collect(Collectors.joining(", "));
            default -> cell(value);
        };
    }

    /** A value as a cell: instants to the second, nothing as {@code -}, attributes as {@code name=value} pairs. */
    static String cell(Object value) {
        return switch (value) {
            case null -> "-";
            case Instant t -> t.truncatedTo(ChronoUnit.SECONDS).toString();
            case Map<?, ?> m when m.isEmpty() -> "-";
            case List<?> l when l.isEmpty() -> "-";
            case List<?> l -> l.stream().map(Table::cell).collect(Collectors.joining(", "));
            case Map<?, ?> m ->
                m.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
            default -> {
                String s = value.toString().replaceAll("\\s*\\R\\s*", " ");
                yield s.isEmpty() ? "-" : s;
            }
        };
    }
}
