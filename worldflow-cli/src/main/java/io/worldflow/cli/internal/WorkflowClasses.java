package io.worldflow.cli.internal;

import io.worldflow.Workflow;
import io.worldflow.annotation.WorkflowMethod;
import io.worldflow.cli.ExitCodes;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The application's workflows, found in classes it names on a classpath it gives. */
final class WorkflowClasses {

    private WorkflowClasses() {}

    /**
     * Every workflow the classes hold: their public static {@link Workflow} fields and no-argument methods, and, for a
     * class with {@link WorkflowMethod}s, an instance made with its public no-argument constructor.
     */
    static List<Object> load(List<String> classNames, String classpath) {
        ClassLoader loader = loader(classpath);
        List<Object> found = new ArrayList<>();
        for (String name : classNames) {
            Class<?> type;
            try {
                type = Class.forName(name.strip(), true, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                throw new CliException(
                        ExitCodes.USAGE,
                        "no class " + name + " on the classpath"
                                + (classpath == null ? " (give --classpath)" : " " + classpath) + ": "
                                + e.getMessage());
            }
            int before = found.size();
            for (Field f : type.getFields()) {
                if (Modifier.isStatic(f.getModifiers()) && Workflow.class.isAssignableFrom(f.getType())) {
                    found.add(read(() -> f.get(null), name + "." + f.getName()));
                }
            }
            for (Method m : type.getMethods()) {
                if (Modifier.isStatic(m.getModifiers())
                        && m.getParameterCount() == 0
                        && Workflow.class.isAssignableFrom(m.getReturnType())) {
                    found.add(read(() -> m.invoke(null), name + "." + m.getName() + "()"));
                }
            }
            if (Stream.of(type.getMethods()).anyMatch(m -> m.isAnnotationPresent(WorkflowMethod.class))) {
                found.add(read(() -> instance(type), "new " + name + "()"));
            }
            if (found.size() == before) {
                throw new CliException(
                        ExitCodes.USAGE,
                        "class " + name + " holds no workflow: no public static"
                                + " Workflow field or no-argument method, and no @WorkflowMethod");
            }
        }
        return found;
    }

    private interface Read {
        Object get() throws Exception;
    }

    private static Object read(Read read, String what) {
        try {
            Object value = read.get();
            if (value == null) {
                throw new CliException(ExitCodes.USAGE, what + " is null");
            }
            return value;
        } catch (CliException e) {
            throw e;
        } catch (Exception | LinkageError e) {
            Throwable cause = e instanceof java.lang.reflect.InvocationTargetException i ? i.getCause() : e;
            throw new CliException(ExitCodes.USAGE, "cannot get the workflow of " + what + ": " + cause, cause);
        }
    }

    private static Object instance(Class<?> type) throws ReflectiveOperationException {
        Constructor<?> c = type.getConstructor();
        return c.newInstance();
    }

    private static ClassLoader loader(String classpath) {
        ClassLoader parent = WorkflowClasses.class.getClassLoader();
        if (classpath == null || classpath.isBlank()) {
            return parent;
        }
        List<URL> urls = new ArrayList<>();
        for (String entry : classpath.split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            if (entry.endsWith("/*") || entry.equals("*")) {
                Path folder = Path.of(entry.substring(0, entry.length() - 1));
                try (Stream<Path> jars = Files.list(folder)) {
                    for (Path jar : jars.filter(p -> p.toString().endsWith(".jar"))
                            .sorted()
                            .toList()) {
                        urls.add(url(jar));
                    }
                } catch (IOException e) {
                    throw new CliException(ExitCodes.USAGE, "cannot list " + folder + ": " + e.getMessage());
                }
            } else {
                Path p = Path.of(entry);
                if (!Files.exists(p)) {
                    throw new CliException(ExitCodes.USAGE, "no " + p + " (--classpath)");
                }
                urls.add(url(p));
            }
        }
        return new URLClassLoader(urls.toArray(URL[]::new), parent);
    }

    private static URL url(Path p) {
        try {
            return p.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new CliException(ExitCodes.USAGE, "bad classpath entry " + p);
        }
    }
}
