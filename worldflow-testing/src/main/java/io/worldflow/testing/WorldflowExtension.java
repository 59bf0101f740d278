package io.worldflow.testing;

import io.worldflow.runtime.ManualClock;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Gives each test a fresh {@link TestWorld}: a local world in a temporary folder, a {@link ManualClock}, a worker and
 * step mocks, closed and deleted after the test. Test methods (and {@code @BeforeEach} methods) receive the
 * {@link TestWorld}, its {@link Worldflow} or its {@link ManualClock} as parameters. When a test fails, every run of
 * its world is printed with its timeline.
 *
 * <p><b>Time skipping</b>: while every unfinished run only sleeps (a durable sleep, a retry's backoff, a delayed start,
 * a parent waiting for such a child), the clock moves by itself to the earliest time one is due, so
 * {@code run.result(...)} of a workflow that sleeps thirty days returns at once. A run waiting for a signal holds the
 * clock: the test sends the signal, or moves time itself to reach the wait's time limit. {@code clock.advance} works
 * as ever; {@link Builder#timeSkipping(boolean) timeSkipping(false)} turns the skipping off.
 *
 * <pre>{@code
 * @RegisterExtension
 * static WorldflowExtension worldflow = WorldflowExtension.builder().register(RENEWAL).build();
 *
 * @Test
 * void renewsEveryMonth(TestWorld world) { ... }
 * }</pre>
 *
 * Used as {@code @ExtendWith(WorldflowExtension.class)} (or {@link WorldflowTest}), it registers nothing: the test
 * registers its workflows on the {@link TestWorld} before it first uses it.
 */
public final class WorldflowExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(WorldflowExtension.class);
    private static final String KEY = "world";

    private final List<Object> workflows;
    private final Map<String, String> properties;
    private final boolean timeSkipping;
    private final Instant start;
    private final PrintStream failures;

    /** An extension that registers nothing and skips time: for {@code @ExtendWith}. */
    public WorldflowExtension() {
        this(new Builder());
    }

    private WorldflowExtension(Builder b) {
        this.workflows = List.copyOf(b.workflows);
        this.properties = Map.copyOf(b.properties);
        this.timeSkipping = b.timeSkipping;
        this.start = b.start;
        this.failures = b.failures;
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        Path folder = Files.createTempDirectory("worldflow-test");
        TestWorld world = new TestWorld(folder, properties, workflows, timeSkipping, new ManualClock(start));
        context.getStore(NAMESPACE).put(KEY, new Held(world, folder));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Held held = context.getStore(NAMESPACE).remove(KEY, Held.class);
        if (held == null) {
            return;
        }
        try {
            context.getExecutionException().ifPresent(e -> failures.print(failureReport(context, held.world())));
        } finally {
            held.world().close();
            delete(held.folder());
        }
    }

    /** What a failed test prints: every run of its world with its timeline. */
    static String failureReport(ExtensionContext context, TestWorld world) {
        return "\n--- worldflow: the runs of " + context.getDisplayName() + " ---\n" + world.timelines();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == TestWorld.class || type == Worldflow.class || type == ManualClock.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Held held = context.getStore(NAMESPACE).get(KEY, Held.class);
        if (held == null) {
            throw new ParameterResolutionException(
                    "the test world exists only for a test method and its" + " @BeforeEach/@AfterEach methods");
        }
        Class<?> type = parameter.getParameter().getType();
        if (type == Worldflow.class) {
            return held.world().worldflow();
        }
        return type == ManualClock.class ? held.world().clock() : held.world();
    }

    private record Held(TestWorld world, Path folder) {}

    private static void delete(Path folder) {
        try (Stream<Path> all = Files.walk(folder)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the test world in " + folder, e);
        }
    }

    /** Configures a {@link WorldflowExtension}. */
    public static final class Builder {
        private final List<Object> workflows = new ArrayList<>();
        private final Map<String, String> properties = new LinkedHashMap<>();
        private boolean timeSkipping = true;
        private Instant start = ManualClock.start().instant();
        private PrintStream failures = System.err;

        private Builder() {}

        /** A workflow (or an object with {@code @WorkflowMethod}s) every test's world registers. */
        public Builder register(Object workflow) {
            workflows.add(Objects.requireNonNull(workflow, "workflow"));
            return this;
        }

        /** A configuration value of every test's Worldflow. */
        public Builder property(String key, String value) {
            properties.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /** Whether the clock skips ahead by itself while every run sleeps (default true). */
        public Builder timeSkipping(boolean value) {
            this.timeSkipping = value;
            return this;
        }

        /** Where each test's clock starts (default 2030-01-01T00:00:00Z). */
        public Builder startingAt(Instant value) {
            this.start = Objects.requireNonNull(value, "value");
            return this;
        }

        /** Where a failed test's runs are printed (default standard error). */
        public Builder printFailuresTo(PrintStream value) {
            this.failures = Objects.requireNonNull(value, "value");
            return this;
        }

        public WorldflowExtension build() {
            return new WorldflowExtension(this);
        }
    }
}
