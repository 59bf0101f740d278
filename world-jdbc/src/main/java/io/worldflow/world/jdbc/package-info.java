/**
 * What the SQL worlds share over plain JDBC, for world authors: statements with named parameters
 * ({@link io.worldflow.world.jdbc.Sql}) run in a {@link io.worldflow.world.jdbc.Tx}; the facets both worlds say alike
 * ({@link io.worldflow.world.jdbc.SqlWorld}, {@link io.worldflow.world.jdbc.JdbcEventLog},
 * {@link io.worldflow.world.jdbc.JdbcTaskQueue}, {@link io.worldflow.world.jdbc.JdbcSignals},
 * {@link io.worldflow.world.jdbc.JdbcRunQueries}) with run rows, filters and cursors; instants as epoch-microsecond
 * columns ({@link io.worldflow.world.jdbc.Micros}); the versioned-schema runner
 * ({@link io.worldflow.world.jdbc.MigrationRunner}). What each database says its own way is its
 * {@link io.worldflow.world.jdbc.SqlDialect} and {@link io.worldflow.world.jdbc.MigrationDialect}. Not for workflow
 * code: users reach a world only through its provider and configuration.
 */
package io.worldflow.world.jdbc;
