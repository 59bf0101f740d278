package io.worldflow.world.local;

import io.worldflow.world.jdbc.Sql;
import io.worldflow.world.jdbc.Tx;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LocalDialectTest {

    @Test
    void textsReachSqliteAsOneParameterWhateverTheyHold() throws SQLException {
        List<String> ids = List.of("plain", "a\"quote", "back\\slash", "tab\tand\nnewline", "é😀", "", "[1,2]");
        Sql sql = Sql.of("SELECT value FROM json_each(:ids) ORDER BY key");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            Object bound = LocalDialect.INSTANCE.texts(ids);

            assertThat(new Tx(c, null).call(sql).set("ids", bound).list(rs -> rs.getString(1)))
                    .containsExactlyElementsOf(ids);
        }
    }

    @Test
    void aColumnIsFoundAmongTheTexts() throws SQLException {
        Sql sql = Sql.of(
                "SELECT x FROM (SELECT 'b' AS x UNION ALL SELECT 'z') WHERE x" + LocalDialect.INSTANCE.inTexts(":ids"));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            Object bound = LocalDialect.INSTANCE.texts(List.of("a", "b", "c"));

            assertThat(new Tx(c, null).call(sql).set("ids", bound).list(rs -> rs.getString(1)))
                    .containsExactly("b");
        }
    }
}
