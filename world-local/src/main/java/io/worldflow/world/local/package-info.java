/**
 * The local world ({@code worldflow.world=local}, the default): every run in one SQLite file in WAL mode, owned by
 * one process, with in-process wake-ups. Only {@link io.worldflow.world.local.LocalWorldProvider} is public.
 */
package io.worldflow.world.local;
