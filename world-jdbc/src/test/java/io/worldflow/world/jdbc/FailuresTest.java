package io.worldflow.world.jdbc;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FailuresTest {

    @Test
    void aMessageNamesTheWorldTheOperationTheRunAndThePlace() {
        assertThat(Failures.failed("local", "append", Failures.run("order-42"), "/data/worldflow.db"))
                .isEqualTo("local world: append of run 'order-42' failed on /data/worldflow.db");
    }

    @Test
    void anOperationWithoutASubjectNamesNone() {
        assertThat(Failures.failed("postgres", "lease", null, "jdbc:postgresql://db/app"))
                .isEqualTo("postgres world: lease failed on jdbc:postgresql://db/app");
        assertThat(Failures.operation("local", "list", null)).isEqualTo("local world: list");
    }
}
