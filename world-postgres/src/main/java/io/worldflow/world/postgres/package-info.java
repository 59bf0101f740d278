/**
 * The Postgres world ({@code worldflow.world=postgres}): runs in PostgreSQL tables under versioned migrations, turns
 * leased by any number of workers with {@code FOR UPDATE SKIP LOCKED}, wake-ups through {@code LISTEN/NOTIFY}. Its
 * public types are the provider and the schema printer for DBAs.
 */
package io.worldflow.world.postgres;
