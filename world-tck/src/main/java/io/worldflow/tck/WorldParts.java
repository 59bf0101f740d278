package io.worldflow.tck;

import io.worldflow.spi.World;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.function.BiConsumer;

/** Worlds and world parts passed through, with some parts replaced or their calls watched, for tests to observe. */
final class WorldParts {

    private WorldParts() {}

    /** {@code world} with the parts named by their accessor ({@code eventLog}, …) replaced; closing it leaves it open. */
    static World with(World world, Map<String, Object> parts) {
        return (World) Proxy.newProxyInstance(
                World.class.getClassLoader(), new Class<?>[] {World.class}, (proxy, method, args) -> {
                    if (parts.containsKey(method.getName())) {
                        return parts.get(method.getName());
                    }
                    return method.getName().equals("close") ? null : invoke(method, world, args);
                });
    }

    /** {@code target}, each call shown to {@code watch} (the method and its arguments) before it is made. */
    static <T> T watched(Class<T> type, T target, BiConsumer<Method, Object[]> watch) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            watch.accept(method, args);
            return invoke(method, target, args);
        }));
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
