package io.worldflow.world.aws.internal;

import io.worldflow.WorldException;
import io.worldflow.world.aws.Emulators;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * An opening that waits for DynamoDB past its limit stops, naming what it waited for, with a transient error: a table
 * that stays {@code CREATING}, an index that stays {@code CREATING}. DynamoDB Local makes both active at once, so the
 * descriptions are rewritten as DynamoDB sends them while it works, and the limits are short.
 */
class TableWaitTest {

    private static final Duration LIMIT = Duration.ofMillis(400);

    @Test
    @Timeout(60)
    void aTableThatStaysCreatingStopsTheOpeningAfterTheWaitNamingItsTable() {
        String prefix = Emulators.freshPrefix();
        AwsSettings settings = AwsSettings.from(Emulators.shared().config(prefix));
        String events = prefix + "events";
        Rewrite creating = new Rewrite(
                events, t -> t.toBuilder().tableStatus(TableStatus.CREATING).build());

        try (Clients clients = Clients.create(settings, List.of(creating))) {
            long start = System.nanoTime();
            Throwable stopped = catchThrowable(
                    () -> new TableSetup(Tables.named(prefix), clients.dynamo(), settings, LIMIT, Duration.ofMinutes(1))
                            .ensure());
            Duration waited = Duration.ofNanos(System.nanoTime() - start);

            assertThat(stopped)
                    .isInstanceOf(WorldException.class)
                    .hasMessage("AWS world: DynamoDB table " + events + " is CREATING, not active, after 400 ms; open"
                            + " the world again later");
            assertThat(((WorldException) stopped).isTransient()).isTrue();
            assertThat(waited).as("waited up to the limit").isGreaterThanOrEqualTo(LIMIT);
            assertThat(creating.looks.get())
                    .as("looked at the table again while waiting")
                    .isGreaterThan(1);
        }
    }

    @Test
    @Timeout(60)
    void anIndexThatStaysCreatingStopsTheOpeningAfterTheWaitNamingTheIndexAndItsTable() {
        String prefix = Emulators.freshPrefix();
        AwsSettings settings = AwsSettings.from(Emulators.shared().config(prefix));
        try (Clients plain = Clients.create(settings, List.of())) {
            Tables.named(prefix).ensure(plain.dynamo(), settings); // every table and index there, and active
        }
        String runs = prefix + "runs";
        Rewrite building = new Rewrite(
                runs,
                t -> t.toBuilder()
                        .globalSecondaryIndexes(t.globalSecondaryIndexes().stream()
                                .map(i -> i.indexName().equals(Tables.BY_WAITING)
                                        ? i.toBuilder()
                                                .indexStatus(IndexStatus.CREATING)
                                                .build()
                                        : i)
                                .toList())
                        .build());

        try (Clients clients = Clients.create(settings, List.of(building))) {
            Throwable stopped = catchThrowable(
                    () -> new TableSetup(Tables.named(prefix), clients.dynamo(), settings, Duration.ofMinutes(1), LIMIT)
                            .ensure());

            assertThat(stopped)
                    .isInstanceOf(WorldException.class)
                    .hasMessage("AWS world: index " + Tables.BY_WAITING + " (CREATING) of DynamoDB table " + runs
                            + " is not active after 400 ms; DynamoDB goes on building it: open the world again later");
            assertThat(((WorldException) stopped).isTransient()).isTrue();
            assertThat(building.looks.get())
                    .as("looked at the table again while waiting")
                    .isGreaterThan(1);
        }
    }

    @Test
    void aWaitIsSpokenInMinutesOrInMilliseconds() {
        assertThat(TableSetup.spoken(Duration.ofMinutes(10))).isEqualTo("10 minutes");
        assertThat(TableSetup.spoken(Duration.ofMillis(400))).isEqualTo("400 ms");
    }

    /** Rewrites every description of one table as {@code how} says, counting them. */
    private static final class Rewrite implements ExecutionInterceptor {
        private final String table;
        private final UnaryOperator<TableDescription> how;
        final AtomicInteger looks = new AtomicInteger();

        Rewrite(String table, UnaryOperator<TableDescription> how) {
            this.table = table;
            this.how = how;
        }

        @Override
        public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
            if (context.response() instanceof DescribeTableResponse r
                    && r.table().tableName().equals(table)) {
                looks.incrementAndGet();
                return r.toBuilder().table(how.apply(r.table())).build();
            }
            return context.response();
        }
    }
}
