package io.worldflow.world.postgres;

import io.worldflow.format.LogChain;
import io.worldflow.spi.Append;
import io.worldflow.world.jdbc.EncodedAppend;
import io.worldflow.world.jdbc.Micros;
import io.worldflow.world.jdbc.Sql;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * A round's appends (each run once) column by column, as the arrays of {@link AppendStatement}'s statements for
 * several runs ({@code unnest}): the check and the projection after each append, a log row per append with events,
 * the signals consumed, the runs finished (named in a NOTIFY on the world's end channel) and the turns that end
 * with the run not finished.
 */
final class AppendColumns {

    /** Under PostgreSQL's 8,000-byte NOTIFY payload limit. */
    private static final int MAX_PAYLOAD_BYTES = 7_900;

    private final List<EncodedAppend> encoded;
    private final List<Append> appends;
    private final Instant now;
    /** Whether the appends come with their records' links (a keyed chain), bound as a column of their own. */
    private final boolean givenLinks;
    /** The turns that end with the run not finished. */
    private final List<Append> endingTurns;

    AppendColumns(List<EncodedAppend> encoded, Instant now, boolean givenLinks) {
        this.encoded = encoded;
        this.appends = encoded.stream().map(EncodedAppend::append).toList();
        this.now = now;
        this.givenLinks = givenLinks;
        this.endingTurns = appends.stream()
                .filter(a -> !a.status().isTerminal() && a.turnEnd() != null)
                .toList();
    }

    /** Binds the arrays; those of the turns that end only when there are some ({@link #endsTurns}). */
    void bind(Sql.Call call) throws SQLException {
        List<Append> signaled = appends.stream()
                .flatMap(a -> a.consumedSignals().stream().map(id -> a))
                .toList();
        Set<String> finished = new LinkedHashSet<>(List.of(
                texts(appends.stream().filter(a -> a.status().isTerminal()).toList(), Append::runId)));
        call.set("ids", texts(appends, Append::runId))
                .set("expected", longs(appends, Append::expectedSeq))
                .set("prStatus", texts(appends, a -> a.status().name()))
                .set("prLength", longs(appends, Append::nextSeq))
                .set("prUpdated", longs(appends, a -> updatedAt(a, now)))
                .set(
                        "prOutput",
                        texts(
                                appends,
                                a -> a.output() == null ? null : a.output().json()))
                .set(
                        "prOutputType",
                        texts(
                                appends,
                                a -> a.output() == null ? null : a.output().type()))
                .set("prError", texts(encoded, EncodedAppend::error))
                .set("prEvents", texts(encoded, EncodedAppend::events))
                .set(
                        "sigId",
                        appends.stream()
                                .flatMap(a -> a.consumedSignals().stream())
                                .toArray(Long[]::new))
                .set("sigRun", texts(signaled, Append::runId))
                .set("finished", finished.toArray(String[]::new))
                .set("endedPayload", endedPayload(finished));
        if (givenLinks) {
            call.set("prLink", texts(encoded, e -> LogChain.hex(e.link())));
        }
        if (endsTurns()) {
            call.set("endRun", texts(endingTurns, Append::runId))
                    .set("endToken", texts(endingTurns, a -> a.turnEnd().lease().token()))
                    .set(
                            "endWake",
                            longs(endingTurns, a -> Micros.orNull(a.turnEnd().wakeAt())));
        }
    }

    /** Whether a turn ends with its run not finished. */
    boolean endsTurns() {
        return !endingTurns.isEmpty();
    }

    private static <R> String[] texts(List<R> rows, Function<R, String> column) {
        return rows.stream().map(column).toArray(String[]::new);
    }

    private static <R> Long[] longs(List<R> rows, Function<R, Long> column) {
        return rows.stream().map(column).toArray(Long[]::new);
    }

    /** The projection's {@code updatedAt}: the last event's instant, or {@code now} for the status alone. */
    static long updatedAt(Append a, Instant now) {
        return Micros.of(a.events().isEmpty() ? now : a.lastAt());
    }

    /**
     * The NOTIFY payload naming the finished runs, one per line (run ids hold no control characters), or
     * {@code "*"} ("some runs ended") when the list would pass PostgreSQL's payload limit.
     */
    static String endedPayload(Set<String> finished) {
        String joined = String.join("\n", finished);
        return joined.getBytes(StandardCharsets.UTF_8).length <= MAX_PAYLOAD_BYTES ? joined : "*";
    }
}
