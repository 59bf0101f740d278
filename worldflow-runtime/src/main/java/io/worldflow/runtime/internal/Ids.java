package io.worldflow.runtime.internal;

/**
 * Deterministic primitive ids: a path of names and counters. Within a scope the n-th primitive of a
 * name is {@code name} (n = 1) or {@code name~n}; a fan-out's branches are scopes {@code parallelId/index}.
 */
final class Ids {

    static final String VERSION_PREFIX = "@version:";

    private Ids() {}

    static String scopeOf(String id) {
        int slash = id.lastIndexOf('/');
        return slash < 0 ? "" : id.substring(0, slash);
    }

    static String nameOf(String id) {
        String last = id.substring(id.lastIndexOf('/') + 1);
        int tilde = last.indexOf('~');
        return tilde < 0 ? last : last.substring(0, tilde);
    }

    static String child(String scope, String name, int occurrence) {
        String local = occurrence == 1 ? name : name + "~" + occurrence;
        return scope.isEmpty() ? local : scope + "/" + local;
    }

    static String branch(String parallelId, int index) {
        return parallelId + "/" + index;
    }

    static boolean isVersionMarker(String id) {
        return id.startsWith(VERSION_PREFIX);
    }

    /** Checks a user-given primitive name: 1..100 characters, none of {@code / ~ @}, no control characters. */
    static String checkName(String what, String name) {
        if (name == null || name.isBlank() || name.length() > 100) {
            throw new IllegalArgumentException(what + " name must be 1..100 non-blank characters, was " + quote(name));
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '/' || c == '~' || c == '@' || Character.isISOControl(c)) {
                throw new IllegalArgumentException(
                        what + " name must not contain '/', '~', '@' or control characters: " + quote(name));
            }
        }
        return name;
    }

    private static String quote(String s) {
        return s == null ? "null" : "'" + s + "'";
    }
}
