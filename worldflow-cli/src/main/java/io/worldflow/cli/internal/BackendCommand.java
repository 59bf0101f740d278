package io.worldflow.cli.internal;

/**
 * A command that works on runs: its inputs are checked first, then the world or the dashboard is opened for it and
 * closed after, however it ends.
 */
public abstract class BackendCommand extends CliCommand {

    @Override
    public final Integer call() throws Exception {
        check();
        try (Backend backend = connection().open(JsonOutput.mapper())) {
            return run(backend);
        }
    }

    /** Checks what was given before anything is opened, throwing a {@link CliException} that names the option. */
    protected void check() {}

    /** @return the exit status ({@link io.worldflow.cli.ExitCodes}) */
    protected abstract int run(Backend backend) throws Exception;
}
