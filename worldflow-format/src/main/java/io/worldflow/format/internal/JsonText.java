package io.worldflow.format.internal;

/** JSON string literals written into a builder: quote, backslash and control characters escaped, as JSON requires. */
final class JsonText {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private JsonText() {}

    /** {@code s} as a quoted JSON string; characters other than those three kinds are written as they are. */
    static void string(StringBuilder out, String s) {
        out.append('"');
        int n = s.length();
        int plain = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            out.append(s, plain, i);
            plain = i + 1;
            escape(out, c);
        }
        out.append(s, plain, n).append('"');
    }

    private static void escape(StringBuilder out, char c) {
        switch (c) {
            case '"' -> out.append("\\\"");
            case '\\' -> out.append("\\\\");
            case '\n' -> out.append("\\n");
            case '\r' -> out.append("\\r");
            case '\t' -> out.append("\\t");
            case '\b' -> out.append("\\b");
            case '\f' -> out.append("\\f");
            default -> out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
        }
    }
}
