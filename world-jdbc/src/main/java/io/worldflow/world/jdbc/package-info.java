/**
 * What the SQL worlds share over plain JDBC, for world authors: instants as epoch-microsecond columns
 * ({@link io.worldflow.world.jdbc.Micros}), the versioned-schema runner
 * ({@link io.worldflow.world.jdbc.MigrationRunner}) with what each database answers its own way
 * ({@link io.worldflow.world.jdbc.MigrationDialect}), and the shape of error messages
 * ({@link io.worldflow.world.jdbc.Failures}). Not for workflow code: users reach a world only through its provider
 * and configuration.
 */
package io.worldflow.world.jdbc;
