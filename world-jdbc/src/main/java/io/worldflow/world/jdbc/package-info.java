/**
 * What the SQL worlds share over plain JDBC, for world authors: instants as epoch-microsecond columns
 * ({@link io.worldflow.world.jdbc.Micros}). Not for workflow code: users reach a world only through its provider
 * and configuration.
 */
package io.worldflow.world.jdbc;
