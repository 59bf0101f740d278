/** Runnable examples, one {@code …Main} per feature, and the README's demo; the README's snippets are taken from here. */
package io.worldflow.examples;
