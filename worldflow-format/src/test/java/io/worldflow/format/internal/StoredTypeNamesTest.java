package io.worldflow.format.internal;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class StoredTypeNamesTest {

    @Test
    void theCommonTypesOfJavaLangAndJavaUtilAreStoredByTheirSimpleNamesAtAnyDepth() {
        assertThat(StoredTypeNames.shorten("java.lang.Integer")).isEqualTo("Integer");
        assertThat(StoredTypeNames.shorten("java.util.Map<java.lang.String,java.util.List<java.lang.Long>>"))
                .isEqualTo("Map<String,List<Long>>");
        assertThat(StoredTypeNames.shorten("java.util.Optional<com.acme.Order>"))
                .isEqualTo("Optional<com.acme.Order>");
        assertThat(StoredTypeNames.expand("Map<String,List<Long>>"))
                .isEqualTo("java.util.Map<java.lang.String,java.util.List<java.lang.Long>>");
    }

    @Test
    void otherNamesAreStoredInFull() {
        for (String full : List.of(
                "com.acme.Order",
                "java.math.BigDecimal",
                "java.util.Map$Entry",
                "java.time.Instant",
                "java.lang.StringBuilder",
                "[Ljava.lang.String;",
                "[I",
                "com.acme.Outer$Inner")) {
            assertThat(StoredTypeNames.shorten(full)).as(full).isEqualTo(full);
            assertThat(StoredTypeNames.expand(full)).as(full).isEqualTo(full);
        }
    }

    @Test
    void aDefaultPackageClassNamedLikeACommonTypeIsStoredApartAndComesBackAsItself() {
        assertThat(StoredTypeNames.shorten("Map")).isEqualTo("/Map");
        assertThat(StoredTypeNames.shorten("java.util.List<String>")).isEqualTo("List</String>");
        assertThat(StoredTypeNames.expand("/Map")).isEqualTo("Map");
        assertThat(StoredTypeNames.expand("List</String>")).isEqualTo("java.util.List<String>");
        assertThat(StoredTypeNames.shorten("Order"))
                .as("a default-package name no common type has")
                .isEqualTo("Order");
        assertThat(StoredTypeNames.expand("Order")).isEqualTo("Order");
    }

    @Test
    void everyNameComesBackAsItWasWritten() {
        for (String type : List.of(
                "java.lang.Object",
                "java.util.Set<java.util.UUID>",
                "Map",
                "/odd",
                "//odder",
                "java.util.Map<Map,java.lang.Map>",
                "java.util.Collection<java.lang.Boolean>",
                "",
                "Integer<>",
                "java.util.List<java.util.Map<java.lang.String,com.acme.Label>>")) {
            assertThat(StoredTypeNames.expand(StoredTypeNames.shorten(type)))
                    .as(type)
                    .isEqualTo(type);
        }
    }
}
