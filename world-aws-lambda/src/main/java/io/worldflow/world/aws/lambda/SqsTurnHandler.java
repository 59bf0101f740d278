package io.worldflow.world.aws.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import io.worldflow.world.aws.AwsWakeUps;
import io.worldflow.world.aws.AwsWorldProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The AWS Lambda entry point: an SQS event handler over the world's wake-up queues, so that workers run as
 * Lambda functions. Subclass it, register your workflows in {@link #worldflow()}, and point the function at
 * your subclass ({@code com.acme.OrdersHandler::handleRequest}) with an SQS trigger on the
 * {@code <queue-prefix><queue>} queue and "report batch item failures" switched on.
 *
 * <p>Per invocation: a worker runs in the function (started on the first invocation, kept while the container
 * lives) and each record (a run id and the instant its turn is due) succeeds once the run has no turn due by
 * then any more: its turn ran, or the run finished. A record not yet due (a timer more than 15 minutes away)
 * is sent again, delayed, and succeeds. Records whose turn is still due when the invocation's time runs
 * low are returned as batch item failures, so SQS delivers them again; their runs' progress is already
 * durable. While it waits, the handler extends the visibility timeout of the records still pending
 * ({@code ChangeMessageVisibility}). Duplicate records are harmless: a run's turn is leased and fenced in DynamoDB.
 */
public abstract class SqsTurnHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {

    private static final Logger log = LoggerFactory.getLogger(SqsTurnHandler.class);
    /** Time kept back from the invocation's limit to answer. */
    static final Duration MARGIN = Duration.ofSeconds(2);

    static final Duration VISIBILITY = Duration.ofSeconds(60);

    private Worldflow worldflow;
    private AwsWakeUps wakeUps;

    /**
     * The function's Worldflow, with its workflows registered, e.g.
     * {@code Worldflow.builder().fromConfig().register(fulfil)}: configuration comes from the function's
     * environment ({@code WORLDFLOW_WORLD=aws}, {@code WORLDFLOW_AWS_REGION}, …). The handler turns off the
     * world's own SQS consumer ({@value AwsWorldProvider#CONSUME_WAKES}): Lambda consumes the queue.
     */
    protected abstract Worldflow.Builder worldflow();

    /** How often the visibility timeout of pending records is extended (to 60 s); 20 s by default. */
    protected Duration visibilityHeartbeat() {
        return Duration.ofSeconds(20);
    }

    /** The worker's options; by default those of the configuration. */
    protected WorkerOptions workerOptions(Worldflow wf) {
        return WorkerOptions.fromConfig(wf.config()).withHandleSigterm(false);
    }

    private synchronized AwsWakeUps started() {
        if (worldflow == null) {
            Worldflow wf = worldflow()
                    .property(AwsWorldProvider.CONSUME_WAKES, "false")
                    .build();
            Optional<AwsWakeUps> wakes = AwsWakeUps.of(wf.world());
            if (wakes.isEmpty()) {
                String name = wf.world().name();
                wf.close();
                throw new IllegalStateException(
                        "SqsTurnHandler needs worldflow.world=aws, the configuration chose '" + name + "'");
            }
            wf.startWorker(workerOptions(wf));
            worldflow = wf;
            wakeUps = wakes.get();
        }
        return wakeUps;
    }

    /** Closes the function's Worldflow (tests; Lambda just freezes the container). */
    public synchronized void shutdown() {
        if (worldflow != null) {
            worldflow.close();
            worldflow = null;
            wakeUps = null;
        }
    }

    private record Pending(SQSEvent.SQSMessage message, String runId, Instant dueAt) {}

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        AwsWakeUps wakes = started();
        long started = System.nanoTime();
        long budget = Math.max(0, context.getRemainingTimeInMillis() - MARGIN.toMillis());
        List<Pending> pending = new ArrayList<>();
        List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
        for (SQSEvent.SQSMessage m : event.getRecords()) {
            String runId = m.getBody() == null ? "" : m.getBody().strip();
            Instant dueAt = dueAt(m);
            if (runId.isEmpty()) {
                log.warn("SQS message {} holds no run id; dropped", m.getMessageId());
                continue;
            }
            Instant now = wakes.now();
            if (dueAt.isAfter(now.plus(AwsWakeUps.MAX_DELAY))) {
                String queue = attribute(m, AwsWakeUps.QUEUE);
                if (queue == null) {
                    failures.add(new SQSBatchResponse.BatchItemFailure(m.getMessageId()));
                } else {
                    wakes.sendAgain(queue, runId, dueAt); // a far timer: delayed again
                }
                continue;
            }
            pending.add(new Pending(m, runId, dueAt));
        }
        long lastBeat = System.nanoTime();
        while (!pending.isEmpty()) {
            pending.removeIf(p -> !safeHasTurn(wakes, p));
            long elapsed = (System.nanoTime() - started) / 1_000_000;
            if (pending.isEmpty() || elapsed >= budget) {
                break;
            }
            if (System.nanoTime() - lastBeat > visibilityHeartbeat().toNanos()) {
                extendVisibility(wakes, pending);
                lastBeat = System.nanoTime();
            }
            try {
                Thread.sleep(Math.min(100, Math.max(1, budget - elapsed)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (Pending p : pending) {
            failures.add(new SQSBatchResponse.BatchItemFailure(p.message().getMessageId()));
        }
        if (!failures.isEmpty()) {
            log.info(
                    "{} of {} record(s) still have a turn due; SQS will deliver them again",
                    failures.size(),
                    event.getRecords().size());
        }
        return new SQSBatchResponse(failures);
    }

    private static boolean safeHasTurn(AwsWakeUps wakes, Pending p) {
        try {
            return wakes.hasTurnDueBy(p.runId(), p.dueAt());
        } catch (RuntimeException e) {
            log.debug("checking run {} failed: {}", p.runId(), e.toString());
            return true;
        }
    }

    private void extendVisibility(AwsWakeUps wakes, List<Pending> pending) {
        for (Pending p : pending) {
            String arn = p.message().getEventSourceArn();
            if (arn == null || p.message().getReceiptHandle() == null) {
                continue;
            }
            try {
                String queueName = arn.substring(arn.lastIndexOf(':') + 1);
                wakes.extendVisibility(queueName, p.message().getReceiptHandle(), VISIBILITY);
            } catch (RuntimeException e) {
                log.debug(
                        "could not extend the visibility of message {}: {}",
                        p.message().getMessageId(),
                        e.toString());
            }
        }
    }

    static Instant dueAt(SQSEvent.SQSMessage m) {
        String micros = attribute(m, AwsWakeUps.DUE_AT);
        if (micros == null) {
            return Instant.EPOCH;
        }
        try {
            long v = Long.parseLong(micros);
            return Instant.ofEpochSecond(Math.floorDiv(v, 1_000_000L), Math.floorMod(v, 1_000_000L) * 1_000L);
        } catch (NumberFormatException e) {
            return Instant.EPOCH;
        }
    }

    private static String attribute(SQSEvent.SQSMessage m, String name) {
        if (m.getMessageAttributes() == null) {
            return null;
        }
        SQSEvent.MessageAttribute a = m.getMessageAttributes().get(name);
        return a == null ? null : a.getStringValue();
    }
}
