package io.worldflow;

/**
 * How an error message shows a value it refuses (an actor, a queue's name): in single quotes, its control characters
 * escaped so that it stays on one line, and cut after {@value #SHOWN} characters with its length given, so that a
 * huge value does not fill the log.
 */
final class Quoted {

    private static final int SHOWN = 40;

    private Quoted() {}

    static String of(String value) {
        if (value == null) {
            return "null";
        }
        boolean cut = value.length() > SHOWN;
        StringBuilder b = new StringBuilder(SHOWN + 24).append('\'');
        for (int i = 0, end = cut ? SHOWN : value.length(); i < end; i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c)) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return cut
                ? b.append("…' (").append(value.length()).append(" characters)").toString()
                : b.append('\'').toString();
    }
}
