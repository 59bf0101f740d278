package io.worldflow.bench;

import io.worldflow.event.Event;
import io.worldflow.event.TimerScheduled;
import io.worldflow.spi.Append;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.EventLog;
import io.worldflow.spi.Lease;
import io.worldflow.spi.LeasedRuns;
import io.worldflow.spi.TaskQueue;
import io.worldflow.spi.WorkerAccess;
import io.worldflow.spi.World;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * In the worker JVM, when {@value #PROPERTY} is true: a world that notes, in wall-clock microseconds (the same clock in
 * every process of this machine), when each run's turns were leased here, when each append holding one of its events
 * came back committed (and the due time of each timer it scheduled), and when the world's due-time notices arrived. The driver reads them through the control port
 * and attributes a run's latency to its hops ({@link Stages}).
 */
final class StageRecorder {

    /** The worker's system property that turns recording on. */
    static final String PROPERTY = "bench.stages";

    /** What one run's hops in this process were, in epoch microseconds. Guarded by itself. */
    private static final class Marks {
        final List<Long> leases = new ArrayList<>();
        final List<Long> commits = new ArrayList<>();
        final List<Long> wakes = new ArrayList<>();
    }

    private final Map<String, Marks> runs = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Long> notices = new ConcurrentLinkedQueue<>();

    private Marks marks(String runId) {
        return runs.computeIfAbsent(runId, id -> new Marks());
    }

    private void leased(Lease lease, long at) {
        Marks m = marks(lease.runId());
        synchronized (m) {
            m.leases.add(at);
        }
    }

    private void committed(List<?> appends, long at) {
        for (Object o : appends) {
            Append a = (Append) o;
            Marks m = marks(a.runId());
            synchronized (m) {
                m.commits.add(at);
                for (Event e : a.events()) {
                    if (e instanceof TimerScheduled timer) {
                        m.wakes.add(BenchWorkflows.micros(timer.fireAt()));
                    }
                }
            }
        }
    }

    /** {@code world}, its appends, leases and notices noted here; everything else passed through as it is. */
    World wrap(World world) {
        EventLog log = proxy(EventLog.class, world.eventLog(), (m, args, call) -> {
            Object result = call.get();
            if (m.getName().equals("append")) {
                committed((List<?>) args[0], BenchWorkflows.epochMicros());
            }
            return result;
        });
        TaskQueue queue = proxy(TaskQueue.class, world.taskQueue(), (m, args, call) -> {
            if (m.getName().equals("subscribe")) {
                @SuppressWarnings("unchecked")
                Consumer<Instant> listener = (Consumer<Instant>) args[0];
                args[0] = (Consumer<Instant>) at -> {
                    notices.add(BenchWorkflows.epochMicros());
                    listener.accept(at);
                };
            }
            Object result = call.get();
            if (m.getName().equals("lease")) {
                long now = BenchWorkflows.epochMicros();
                for (Object l : (List<?>) result) {
                    leased((Lease) l, now);
                }
            }
            return result;
        });
        WorkerAccess access = proxy(WorkerAccess.class, world.workerAccess(), (m, args, call) -> {
            Object result = call.get();
            long now = BenchWorkflows.epochMicros();
            switch (m.getName()) {
                case "leaseAndLoad" -> ((LeasedRuns) result).leases().forEach(l -> leased(l, now));
                case "createLeased" -> {
                    CreateResult created = (CreateResult) result;
                    if (created.lease() != null) {
                        leased(created.lease(), now);
                    }
                }
                case "appendLeasingStarts" -> committed((List<?>) args[0], now);
                default -> {
                    // nothing to note
                }
            }
            return result;
        });
        return proxy(World.class, world, (m, args, call) -> switch (m.getName()) {
            case "eventLog" -> log;
            case "taskQueue" -> queue;
            case "workerAccess" -> access;
            default -> call.get();
        });
    }

    /** A run's marks as {@code leases;commits;wakes}, each a comma-separated list of epoch microseconds. */
    String marksOf(String runId) {
        Marks m = runs.get(runId);
        if (m == null) {
            return ";;";
        }
        synchronized (m) {
            return join(m.leases) + ";" + join(m.commits) + ";" + join(m.wakes);
        }
    }

    /** When the world's notices arrived, epoch microseconds, comma-separated. */
    String notices() {
        return join(new ArrayList<>(notices));
    }

    private static String join(List<Long> values) {
        return values.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    /** The call being intercepted, to be carried out by the handler when it chooses. */
    private interface Call {
        Object get() throws Throwable;
    }

    private interface Handler {
        Object handle(Method method, Object[] args, Call call) throws Throwable;
    }

    private static <T> T proxy(Class<T> type, T target, Handler handler) {
        InvocationHandler h = (p, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> p == args[0];
                    case "hashCode" -> System.identityHashCode(p);
                    default -> "stages(" + target + ")";
                };
            }
            Object[] a = args == null ? new Object[0] : args;
            return handler.handle(method, a, () -> {
                try {
                    return method.invoke(target, a);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });
        };
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, h));
    }
}
