package io.worldflow.spi;

/**
 * Where runs live and how work reaches workers. A world is made of small facets; each world
 * implements all of them over one store (a SQLite file, a Postgres database, DynamoDB and SQS).
 * Every method is safe to call from many threads at once.
 */
public interface World extends AutoCloseable {

    /** The world's name, as used in {@code worldflow.world}. */
    String name();

    EventLog eventLog();

    TaskQueue taskQueue();

    Signals signals();

    RunQueries runQueries();

    /** The schedules every worker of this world fires from. */
    ScheduleStore schedules();

    /** The queues' limits and state every worker of this world admits runs by. */
    QueueStore queues();

    /**
     * What a worker asks of this world to take turns and start them, each request answered the plain way
     * ({@link PlainWorkerAccess}) or in fewer trips where the store can combine them.
     */
    WorkerAccess workerAccess();

    /** Releases connections and threads. Idempotent. */
    @Override
    void close();
}
