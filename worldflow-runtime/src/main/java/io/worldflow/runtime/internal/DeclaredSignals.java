package io.worldflow.runtime.internal;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.worldflow.RunInfo;
import io.worldflow.SerializationException;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.spi.World;

import java.io.IOException;
import java.util.Optional;

/**
 * A signal read as the type its run's workflow declares for it ({@link io.worldflow.WorkflowOptions#signalTypes()})
 * before it is stored. A signal sent over HTTP or from the CLI arrives as plain JSON, which says nothing of which of its
 * fields are secrets: read as the declared type, its {@link io.worldflow.Secret} fields are sealed like those of a
 * signal sent from Java, and a body the workflow could not read is refused at the door instead of failing the run
 * that waits for it.
 */
public final class DeclaredSignals {

    private DeclaredSignals() {}

    /**
     * {@code payload} as the declared type of signal {@code name} of run {@code runId}, or as it is when the run's
     * workflow is not registered here, declares no type for it, or the run does not exist (sending it says so).
     *
     * @throws SerializationException when the payload does not read as the declared type
     */
    public static Object read(
            Registry registry, World world, JsonCodec codec, String runId, String name, Object payload) {
        if (!registry.declaresSignal(name)) {
            return payload;
        }
        Optional<RunInfo> run = world.runQueries().get(runId);
        if (run.isEmpty()) {
            return payload;
        }
        String workflow = run.get().workflow();
        Class<?> type = registry.signalType(workflow, name).orElse(null);
        if (type == null || type.isInstance(payload)) {
            return payload;
        }
        if (payload == null) {
            throw new SerializationException(
                    "signal '" + name + "' of workflow '" + workflow + "' is declared as " + type.getName()
                            + ", and what was sent for run '" + runId + "' has no payload",
                    null);
        }
        try {
            // every component of a record (or constructor parameter) must be sent, if only as null: a field left out
            // is a sender's mistake that would otherwise reach the workflow as a null or a zero
            ObjectMapper mapper = codec.payloadMapper();
            JsonNode tree = mapper.valueToTree(payload);
            return mapper.readerFor(type)
                    .with(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
                    .readValue(tree);
        } catch (IllegalArgumentException | IOException e) {
            Throwable cause = e instanceof JsonMappingException ? e : e.getCause();
            String why = cause instanceof JsonMappingException m
                    ? m.getOriginalMessage() + (m.getPath().isEmpty() ? "" : " (at " + path(m) + ")")
                    : e.getMessage();
            throw new SerializationException(
                    "signal '" + name + "' of workflow '" + workflow + "' is declared as " + type.getName()
                            + ", and what was sent for run '" + runId + "' does not read as one: " + why,
                    e);
        }
    }

    /** Where in the payload reading failed, as {@code holder} or {@code items[2].sku}. */
    private static String path(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                path.append('[').append(r.getIndex()).append(']');
            }
        }
        return path.toString();
    }
}
