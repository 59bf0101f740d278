package io.worldflow.examples;

// tag::quickstart[]
import io.worldflow.RunHandle;
import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;

import java.time.Duration;

public class QuickstartMain {

    record Greeting(String name) {}

    static final Workflow<Greeting, String> GREET = Workflow.define("greet.v1", Greeting.class, (ctx, in) -> {
        String user = ctx.step("load-user", () -> in.name().toUpperCase()); // recorded, never re-run
        ctx.sleep("pause", Duration.ofSeconds(1)); // durable timer
        return ctx.step("compose", () -> "Hello, " + user + "!");
    });

    public static void main(String[] args) {
        // The world comes from configuration: the local SQLite world (worldflow.db) unless told otherwise.
        try (Worldflow wf = Worldflow.builder().fromConfig().register(GREET).build()) {
            wf.startWorker();
            RunHandle<String> run = wf.start(GREET, new Greeting("ada"));
            System.out.println(run.result(Duration.ofSeconds(30))); // Hello, ADA!
            wf.events(run.id()).forEach(e -> System.out.println(e.seq() + " " + e.type()));
        }
    }
}
// end::quickstart[]
