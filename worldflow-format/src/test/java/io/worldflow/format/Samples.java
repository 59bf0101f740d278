package io.worldflow.format;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.event.ChildWorkflowCanceled;
import io.worldflow.event.ChildWorkflowCompleted;
import io.worldflow.event.ChildWorkflowFailed;
import io.worldflow.event.ChildWorkflowStarted;
import io.worldflow.event.Event;
import io.worldflow.event.MarkerRecorded;
import io.worldflow.event.ParallelCompleted;
import io.worldflow.event.ParallelStarted;
import io.worldflow.event.PrimitiveCanceled;
import io.worldflow.event.RaceStarted;
import io.worldflow.event.RaceWon;
import io.worldflow.event.ScopeStarted;
import io.worldflow.event.SearchAttributesUpdated;
import io.worldflow.event.SignalReceived;
import io.worldflow.event.SignalRequested;
import io.worldflow.event.SignalTimedOut;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.StepFailed;
import io.worldflow.event.StepRetrying;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.StepStarted;
import io.worldflow.event.TimerFired;
import io.worldflow.event.TimerScheduled;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.event.WorkflowCanceled;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.event.WorkflowContinuedAsNew;
import io.worldflow.event.WorkflowFailed;
import io.worldflow.event.WorkflowRetried;
import io.worldflow.event.WorkflowStarted;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Events the tests encode: fixed values only, so that their text can be compared byte for byte. */
final class Samples {

    static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    static final Instant T_NANOS = Instant.parse("2030-01-01T10:20:30.123456789Z");
    static final ErrorInfo ERROR = new ErrorInfo(
            "java.lang.IllegalStateException",
            "boom",
            "java.lang.IllegalStateException: boom\n\tat com.acme.Stock.reserve(Stock.java:12)\n"
                    + "Caused by: java.io.IOException: disk\n\t... 1 more\n",
            List.of("java.io.IOException"));

    private Samples() {}

    /** One of each event type, with payloads and errors that exercise the embedding. */
    static List<Event> oneOfEach() {
        Payload input = new Payload(
                "{\"id\":\"o-1\",\"items\":[{\"sku\":\"a\",\"weightGrams\":12}],\"total\":12.50}", "com.acme.Order");
        Payload list = new Payload("[{\"sku\":\"a\",\"weightGrams\":1}]", "java.util.List<com.acme.Label>");
        return List.of(
                new WorkflowStarted("r1", 0, T_NANOS, "order.fulfil.v1", input, T0.plusSeconds(3600)),
                new StepScheduled("r1", 1, T0, "charge", "charge"),
                new StepStarted("r1", 2, T0, "charge", 1),
                new StepRetrying("r1", 3, T0, "charge", 1, ERROR, T0.plusSeconds(2)),
                new StepCompleted("r1", 4, T0, "charge", 2, new Payload("\"ch-1\"", "java.lang.String")),
                new StepFailed("r1", 5, T0, "reserve", 3, ERROR),
                new TimerScheduled("r1", 6, T0, "cool-off", "cool-off", T0.plus(Duration.ofMinutes(10))),
                new TimerFired("r1", 7, T0.plus(Duration.ofMinutes(10)), "cool-off"),
                new SignalRequested("r1", 8, T0, "approval", "approval", T0.plus(Duration.ofDays(2))),
                new SignalReceived("r1", 9, T0, "approval", "approval", new Payload("{\"ok\":true}", null), T0),
                new SignalTimedOut("r1", 10, T0, "approval~2", "approval"),
                new ParallelStarted("r1", 11, T0, "labels", "labels", 3),
                new ParallelCompleted("r1", 12, T0, "labels"),
                new MarkerRecorded("r1", 13, T0, "@version:fix-1", "version", new Payload("2", "java.lang.Integer")),
                new WorkflowCancelRequested("r1", 14, T0, "requested by client", T0.minusSeconds(1)),
                new WorkflowCanceled("r1", 15, T0),
                new WorkflowCompleted("r1", 16, T0, list),
                new WorkflowFailed("r1", 17, T0, ERROR),
                new WorkflowRetried("r1", 18, T0, "reserve", "stock arrived"));
    }

    /**
     * The events and fields added to format version 1 since its golden text was taken: child runs. A reader of this
     * version reads them; an older one refuses them by their unknown type.
     */
    static List<Event> added() {
        return List.of(
                new ChildWorkflowStarted("r1", 19, T0, "ship", "ship", "r1/ship", "order.ship", "REQUEST_CANCEL"),
                new ChildWorkflowCompleted("r1", 20, T0, "ship", "r1/ship", new Payload("\"t-1\"", "java.lang.String")),
                new ChildWorkflowFailed("r1", 21, T0, "ship~2", "r1/ship~2", ERROR),
                new ChildWorkflowCanceled("r1", 22, T0, "ship~3", "r1/ship~3"));
    }

    /**
     * The events added to format version 1 with scopes and races: an async scope, a detached one, a race of three,
     * its winner, and a loser canceled.
     */
    static List<Event> addedForRaces() {
        return List.of(
                new ScopeStarted("r1", 23, T0, "quote", "quote", 0),
                new ScopeStarted("r1", 24, T0, "release", "release", 1),
                new RaceStarted("r1", 25, T0, "first", "first", List.of("paid", "expiry", "quote")),
                new RaceWon("r1", 26, T0, "first", 1, "expiry"),
                new PrimitiveCanceled("r1", 27, T0, "paid", "lost race 'first'"));
    }

    /**
     * The events and fields added to format version 1 with continue-as-new: a successor's first event, which names
     * the run it continues, and a run's end that hands over to its successor.
     */
    static List<Event> addedForContinueAsNew() {
        return List.of(
                new WorkflowStarted(
                        "r1", 0, T0, "sub.renew", new Payload("{\"month\":2}", "com.acme.Plan"), null, null, "r0"),
                new WorkflowContinuedAsNew("r1", 1, T0, "r1~2", new Payload("{\"month\":3}", "com.acme.Plan")));
    }

    /** The first event of a run a schedule started, which names the schedule and its fire time (added to version 1). */
    static WorkflowStarted startedBySchedule() {
        return new WorkflowStarted(
                "r1", 0, T0, "report.nightly", Payload.NULL, null, null, null, "nightly", T0.minusMillis(3), null);
    }

    /** Events that record who caused them (a field added to version 1). */
    static List<Event> addedForActors() {
        return List.of(
                new WorkflowStarted(
                        "r1", 0, T0, "order.fulfil.v1", Payload.NULL, null, null, null, null, null, "billing-service"),
                new SignalReceived("r1", 1, T0, "approval", "approval", Payload.NULL, T0, "signal-url:Jx3k9QpL2mN8"),
                new WorkflowCancelRequested("r1", 2, T0, "customer left", T0, false, "dashboard:otto"),
                new WorkflowRetried("r1", 3, T0, "reserve", "stock arrived", "dashboard:ada"));
    }

    /**
     * The events and fields added to format version 1 with search attributes: a run that starts with some, and a
     * change that sets two (of other types) and removes one.
     */
    static List<Event> addedForSearch() {
        return List.of(
                new WorkflowStarted(
                        "r1",
                        0,
                        T0,
                        "order.fulfil.v1",
                        Payload.NULL,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        List.of("customer=s:42", "vip=b:true")),
                new SearchAttributesUpdated(
                        "r1", 1, T0, "search", List.of("amount=l:1200", "due=t:2030-01-02T00:00:00Z", "vip")));
    }

    /** The first event of a child run, which names its parent (a field added to version 1). */
    static WorkflowStarted startedByParent() {
        return new WorkflowStarted("r1", 0, T0, "order.ship", Payload.NULL, null, "p1");
    }

    /** Every sample event: version 1's and those added since. */
    static List<Event> everyEvent() {
        return Stream.concat(
                        oneOfEach().stream(),
                        Stream.concat(
                                Stream.concat(added().stream(), addedForRaces().stream()),
                                Stream.concat(
                                        addedForContinueAsNew().stream(),
                                        Stream.concat(
                                                Stream.concat(addedForActors().stream(), addedForSearch().stream()),
                                                Stream.of(startedByParent(), startedBySchedule())))))
                .toList();
    }

    /** Values each stored field leaves out, or writes although another field of its kind leaves them out. */
    static List<Event> leftOutOrNot() {
        ErrorInfo bare = new ErrorInfo("com.acme.Oops", null, null, null);
        return List.of(
                new StepStarted("r1", 0, T0, "a", 2),
                new StepCompleted("r1", 1, T0, "a", 0, Payload.NULL),
                new StepCompleted("r1", 2, T0, "a", 1, null),
                new ParallelStarted("r1", 3, T0, "p", "p", 0),
                new WorkflowStarted("r1", 4, T0, "w", Payload.NULL, null),
                new SignalReceived("r1", 5, T0, "approval", "approval", new Payload("[1,2,3]", null), null),
                new StepFailed("r1", 6, T0, "a", 1, bare),
                new WorkflowFailed("r1", 7, T0, null));
    }

    /**
     * The appends of a short run as the engine makes them, microseconds apart within an append: the start, a quick
     * step (scheduled, started and completed in one turn), a durable sleep, its end, a second step and the result.
     */
    static Map<String, List<Event>> typicalAppends() {
        String run = "order-42";
        Instant t = Instant.parse("2026-11-22T08:36:33.288246250Z");
        Map<String, List<Event>> appends = new LinkedHashMap<>();
        Payload order = new Payload(
                "{\"id\":\"o-42\",\"items\":[{\"sku\":\"a-1\",\"qty\":2}],\"total\":12.50}", "com.acme.Order");
        appends.put("start", List.of(new WorkflowStarted(run, 0, t, "order.fulfil.v1", order, null)));
        Instant s = t.plusMillis(3).plusNanos(418_112);
        appends.put(
                "quick step",
                List.of(
                        new StepScheduled(run, 1, s, "charge", "charge"),
                        new StepStarted(run, 2, s.plusNanos(2_694), "charge", 1),
                        new StepCompleted(
                                run,
                                3,
                                s.plusNanos(1_311_408),
                                "charge",
                                1,
                                new Payload("{\"id\":\"ch-1\",\"amount\":12.50}", "com.acme.Charge"))));
        Instant n = s.plusMillis(2).plusNanos(77_201);
        appends.put("sleep", List.of(new TimerScheduled(run, 4, n, "cool-off", "cool-off", n.plusSeconds(600))));
        Instant w = n.plusSeconds(600).plusMillis(12).plusNanos(5_330);
        appends.put("timer fired", List.of(new TimerFired(run, 5, w, "cool-off")));
        Instant l = w.plusMillis(1).plusNanos(90_112);
        appends.put(
                "step with a list",
                List.of(
                        new StepScheduled(run, 6, l, "labels", "labels"),
                        new StepStarted(run, 7, l.plusNanos(3_101), "labels", 1),
                        new StepCompleted(
                                run,
                                8,
                                l.plusNanos(2_480_907),
                                "labels",
                                1,
                                new Payload("[\"LBL-1\",\"LBL-2\"]", "java.util.List<java.lang.String>"))));
        appends.put(
                "end",
                List.of(new WorkflowCompleted(
                        run,
                        9,
                        l.plusMillis(3).plusNanos(1_017),
                        new Payload("{\"charge\":\"ch-1\",\"labels\":[\"LBL-1\",\"LBL-2\"]}", "com.acme.Receipt"))));
        return appends;
    }
}
