package io.worldflow;

/** The database was written by a newer Worldflow (its schema version is above what this code knows). */
public class SchemaVersionException extends WorldException {

    public SchemaVersionException(String store, int found, int supported) {
        super(
                store + " has schema version " + found + " but this Worldflow supports up to " + supported
                        + "; upgrade Worldflow or point it at another database",
                false,
                null);
    }
}
