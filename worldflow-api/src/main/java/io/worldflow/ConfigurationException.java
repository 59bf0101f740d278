package io.worldflow;

/** Configuration is missing, malformed or names something that does not exist. */
public class ConfigurationException extends WorldflowException {

    public ConfigurationException(String message) {
        super(message);
    }

    public ConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
