package io.worldflow;

/** A value could not be turned into JSON, or JSON back into a value. Names what was being (de)serialized. */
public class SerializationException extends WorldflowException {

    public SerializationException(String message, Throwable cause) {
        super(message, cause);
    }
}
