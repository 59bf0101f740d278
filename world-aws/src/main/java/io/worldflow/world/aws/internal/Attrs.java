package io.worldflow.world.aws.internal;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.Map;

/** Attribute values in and out of DynamoDB items, and the sortable text keys the indexes use. */
final class Attrs {

    private Attrs() {}

    static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }

    static AttributeValue b(byte[] v) {
        return AttributeValue.fromB(SdkBytes.fromByteArray(v));
    }

    static String str(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null || v.s() == null ? null : v.s();
    }

    static Long num(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null || v.n() == null ? null : Long.parseLong(v.n());
    }

    static long num(Map<String, AttributeValue> item, String name, long fallback) {
        Long v = num(item, name);
        return v == null ? fallback : v;
    }

    /** Epoch microseconds: the precision every instant is stored with. */
    static long micros(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000);
    }

    static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
    }

    static Instant instant(Map<String, AttributeValue> item, String name) {
        Long v = num(item, name);
        return v == null ? null : instant(v);
    }

    /** Microseconds as fixed-width text that sorts like the number (instants from year 1970 to 318857). */
    static String pad(long micros) {
        return String.format("%019d", Math.max(0, micros));
    }

    /** A time-ordered index key: the instant, then the run id to break ties. */
    static String timeKey(long micros, String runId) {
        return pad(micros) + ":" + runId;
    }
}
