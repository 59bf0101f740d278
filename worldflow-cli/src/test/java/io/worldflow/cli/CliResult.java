package io.worldflow.cli;

/** How one command line ended: its exit status and what it printed on standard output and error. */
record CliResult(int exit, String out, String err) {

    /** The error output as its lines, for the rule that a failure is said in one line. */
    String[] errLines() {
        return err.isBlank() ? new String[0] : err.strip().split("\\R");
    }

    @Override
    public String toString() {
        return "exit " + exit + "\n--- out:\n" + out + "--- err:\n" + err;
    }
}
