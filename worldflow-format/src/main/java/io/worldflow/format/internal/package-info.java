/**
 * How {@link io.worldflow.format.EventFormat} writes and reads: the log record's reader and writer, the stored
 * fields of each event type, the event mapper, and the short forms of times and type names. Not API: it may change
 * in any release, while the text it writes may not.
 */
package io.worldflow.format.internal;
