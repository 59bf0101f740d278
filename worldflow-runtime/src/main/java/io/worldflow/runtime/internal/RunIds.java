package io.worldflow.runtime.internal;

import java.security.SecureRandom;

/**
 * The ids given to runs started without one: 22 characters, the first 8 the creation millisecond and the other
 * 14 random (84 bits), in an alphabet whose characters are in ASCII order ({@code -0-9A-Z_a-z}), so that ids
 * sort by creation time and are safe in URLs and file names. The first character's top bit is set, so that it is one
 * of {@code V-Z_a-z} and never {@code -}: an id is never taken for an option on a command line, and every id made
 * now sorts after those made when the first character was {@code -}.
 * <p>
 * Shorter than a UUID's 36 characters, an id costs every index entry that holds it 16 bytes less (a key of
 * 23 bytes fills 24, one of 37 fills 40); ordered by time, new runs land at the end of an index by run id
 * rather than anywhere in it.
 */
public final class RunIds {

    /** Characters of a generated id. */
    public static final int LENGTH = 22;

    private static final char[] ALPHABET =
            "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".toCharArray();
    private static final int TIME_CHARS = 8;
    private static final SecureRandom RANDOM = new SecureRandom();

    private RunIds() {}

    /** The bit set in the first character, above the millisecond's 47 bits. */
    private static final long FIRST_CHARACTER_BIT = 1L << 47;

    /**
     * A new id for a run created at {@code epochMillis}, of which the low 47 bits are used (ids sort by time
     * from 1970 to the year 6429).
     */
    public static String next(long epochMillis) {
        char[] id = new char[LENGTH];
        long time = (epochMillis & (FIRST_CHARACTER_BIT - 1)) | FIRST_CHARACTER_BIT;
        for (int i = TIME_CHARS - 1; i >= 0; i--) {
            id[i] = ALPHABET[(int) (time & 63)];
            time >>>= 6;
        }
        byte[] random = new byte[11]; // 88 bits, 84 of them used
        RANDOM.nextBytes(random);
        long high = 0;
        for (int i = 0; i < 7; i++) {
            high = (high << 8) | (random[i] & 0xff); // 56 bits: 9 characters and 2 bits
        }
        long low = 0;
        for (int i = 7; i < 11; i++) {
            low = (low << 8) | (random[i] & 0xff); // 32 bits: 5 characters and 2 bits
        }
        for (int i = 0; i < 9; i++) {
            id[TIME_CHARS + i] = ALPHABET[(int) (high & 63)];
            high >>>= 6;
        }
        for (int i = 0; i < 5; i++) {
            id[TIME_CHARS + 9 + i] = ALPHABET[(int) (low & 63)];
            low >>>= 6;
        }
        return new String(id);
    }
}
