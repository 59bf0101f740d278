package io.worldflow.world.postgres;

import io.worldflow.spi.EventCodec;
import io.worldflow.spi.TaskQueue;
import io.worldflow.world.jdbc.JdbcRunQueries;

import java.util.Objects;
import java.util.function.Consumer;

/** Reads of the {@code runs} projection, and the runs finished by any process as the end channel names them. */
final class PgRunQueries extends JdbcRunQueries {

    private final DueListener listener;

    PgRunQueries(Database db, EventCodec codec, DueListener listener) {
        super(db, codec);
        this.listener = listener;
    }

    /** Hears of runs finished by any process through the world's end channel (LISTEN/NOTIFY). */
    @Override
    public TaskQueue.Subscription subscribeEnded(Consumer<String> ended) {
        Objects.requireNonNull(ended, "ended");
        return listener.subscribeEnded(ended);
    }
}
