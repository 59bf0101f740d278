package io.worldflow.cli;

/**
 * What the {@code worldflow} command's exit status means, so that a script can tell a problem it should look at
 * from a mistake in how it called the command, and both from a world or server it could not reach.
 */
public final class ExitCodes {

    /** The command did what was asked. */
    public static final int OK = 0;
    /**
     * The command ran and found a problem: a broken hash chain, or a run whose state refuses the action (retrying a
     * run that did not fail, signalling a run that has finished).
     */
    public static final int PROBLEM = 1;
    /** Bad usage or input: an unknown option, malformed JSON, a bad filter, an unknown world, missing configuration. */
    public static final int USAGE = 2;
    /** What was named does not exist: an unknown run or schedule. */
    public static final int NOT_FOUND = 3;
    /** The world or the server could not be reached or used, or the server refused the token. */
    public static final int UNAVAILABLE = 4;

    private ExitCodes() {}

    /** The table the help's footer prints. */
    static String[] footer() {
        return new String[] {
            "",
            "Exit codes:",
            "  " + OK + "  ok",
            "  " + PROBLEM + "  a problem found: a broken chain, a run whose state refuses the action",
            "  " + USAGE + "  bad usage or input: an unknown option, malformed JSON, an unknown world",
            "  " + NOT_FOUND + "  not found: an unknown run or schedule",
            "  " + UNAVAILABLE + "  the world or the server cannot be reached, or the server refused the token",
        };
    }
}
