package io.worldflow.cli.internal;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

import java.io.Console;
import java.lang.reflect.Method;
import java.util.function.LongSupplier;

/**
 * A progress bar on standard error for a command that goes through many runs, shown only when a person watches a
 * terminal: in a pipe, a file or a test it prints nothing, so that output stays what a script reads.
 */
final class Progress implements AutoCloseable {

    private final ProgressBar bar;

    private Progress(ProgressBar bar) {
        this.bar = bar;
    }

    /**
     * A bar of {@code total} steps named {@code task}, or one that shows nothing when no one watches; the total is
     * counted only for a bar that shows (counting a large world's runs is a query of its own).
     */
    static Progress start(String task, LongSupplier total) {
        if (!interactive()) {
            return new Progress(null);
        }
        long steps = total.getAsLong();
        if (steps < 2) {
            return new Progress(null);
        }
        return new Progress(new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(steps)
                .setUpdateIntervalMillis(200)
                .clearDisplayOnFinish()
                .build());
    }

    void step() {
        if (bar != null) {
            bar.step();
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }

    /**
     * Whether the process's standard streams are a terminal. JDK 22 to 24 give a {@link Console} to a redirected
     * process too, and tell the two apart with {@code Console.isTerminal()}, which the JDK 21 this compiles against
     * does not have: it is looked up where it exists.
     */
    static boolean interactive() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (NoSuchMethodException e) {
            return true; // JDK 21: a console is given to a terminal only
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }
}
