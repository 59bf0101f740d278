package io.worldflow;

/**
 * Who caused an event from outside a run, as its log records it ({@code actor} of {@code WorkflowStarted},
 * {@code SignalReceived}, {@code WorkflowCancelRequested} and {@code WorkflowRetried}): the application's identity for
 * its own client calls (set with {@code Worldflow.builder().actor(…)}, or for some calls with
 * {@code wf.actingAs(…)}), {@code dashboard:<caller>} for the dashboard and HTTP API, {@code signal-url:<token id>}
 * for a signed signal URL, and {@code schedule:<id>} for a run a schedule started at one of its fire times (a run
 * someone triggered or backfilled records who did).
 */
public final class Actors {

    /** The application's identity when it set none. */
    public static final String APPLICATION = "application";

    /** The longest actor recorded. */
    public static final int MAX_LENGTH = 200;

    private Actors() {}

    /** A caller of the dashboard or its HTTP API, by the name of its token or the identity the application gave it. */
    public static String dashboard(String caller) {
        return "dashboard:" + caller;
    }

    /** A signed signal URL, by its token's id (the start of its MAC, which names the URL without letting it be used). */
    public static String signalUrl(String tokenId) {
        return "signal-url:" + tokenId;
    }

    /** The schedule that started a run. */
    public static String schedule(String scheduleId) {
        return "schedule:" + scheduleId;
    }

    /**
     * The actor, checked.
     *
     * @throws IllegalArgumentException when it is blank, longer than {@link #MAX_LENGTH} or holds a control character
     *                                  (a line break would let it pass for lines of a timeline shown as text)
     */
    public static String check(String actor) {
        if (actor == null || actor.isBlank() || actor.length() > MAX_LENGTH) {
            throw new IllegalArgumentException(
                    "an actor must be 1.." + MAX_LENGTH + " characters and not blank, was " + Quoted.of(actor));
        }
        for (int i = 0; i < actor.length(); i++) {
            if (Character.isISOControl(actor.charAt(i))) {
                throw new IllegalArgumentException(String.format(
                        "an actor must not hold control characters, was %s with U+%04X at %d",
                        Quoted.of(actor), (int) actor.charAt(i), i));
            }
        }
        return actor;
    }
}
