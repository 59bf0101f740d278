package io.worldflow.tck;

import io.worldflow.ChildOptions;
import io.worldflow.NonDeterministicWorkflowException;
import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.ScheduleSpec;
import io.worldflow.SearchAttributes;
import io.worldflow.SearchKey;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.event.SearchAttributesUpdated;
import io.worldflow.event.WorkflowStarted;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Search attributes end to end: given at the start, changed by the workflow (each change recorded and replayed, a
 * change that differs from the record holding the run), carried to a successor, given to a child, and found through
 * {@link RunQuery} as they change; a change the code asks for that breaks the rules is refused and records nothing.
 */
public abstract class SearchWorkflowContract extends WorkflowContractSupport {

    static final SearchKey<String> CUSTOMER = SearchKey.forString("customer");
    static final SearchKey<String> STAGE = SearchKey.forString("stage");
    static final SearchKey<Long> ROUND = SearchKey.forLong("round");

    protected SearchWorkflowContract(WorldConformanceKit kit) {
        super(kit);
    }

    private List<String> found(SearchKey<String> key, String value) {
        return wf.runs(RunQuery.all().withAttribute(key, value)).runs().stream()
                .map(RunInfo::runId)
                .toList();
    }

    /** Marks its stage before and after a pause; what it saw of its attributes is its result. */
    private final Workflow<String, String> staged = Workflow.define("tck.search.staged", String.class, (ctx, in) -> {
        ctx.upsertSearchAttributes(SearchAttributes.of(STAGE, "reserved"));
        ctx.sleep("wait", Duration.ofHours(1));
        ctx.upsertSearchAttributes(SearchAttributes.of(STAGE, "shipped").with(ROUND, 1L));
        ctx.removeSearchAttributes("customer");
        return ctx.searchAttributes().toString();
    });

    @Test
    void attributesGivenAtTheStartAndChangedByTheWorkflowAreFoundAsTheyChange() {
        worldflow(staged);
        wf.start(staged, "x", StartOptions.id("search-1").withSearchAttribute(CUSTOMER, "42"));
        wf.start(staged, "y", StartOptions.id("search-2").withSearchAttribute(CUSTOMER, "43"));

        awaitStatus("search-1", RunStatus.SLEEPING);
        awaitStatus("search-2", RunStatus.SLEEPING);
        assertThat(found(CUSTOMER, "42")).containsExactly("search-1");
        assertThat(found(STAGE, "reserved")).containsExactlyInAnyOrder("search-1", "search-2");
        assertThat(wf.run("search-1").orElseThrow().searchAttributes())
                .isEqualTo(SearchAttributes.of(CUSTOMER, "42").with(STAGE, "reserved"));
        WorkflowStarted started =
                (WorkflowStarted) world.eventLog().read("search-1", 0).getFirst();
        assertThat(started.searchAttributes()).containsExactly("customer=s:42");

        // the worker restarts: the replay of the first change writes nothing again
        restart(staged);
        clock.advance(Duration.ofHours(1));

        assertThat(wf.handle("search-1", String.class).result(WAIT)).isEqualTo("{round=1, stage=shipped}");
        awaitStatus("search-2", RunStatus.COMPLETED);
        assertThat(found(STAGE, "reserved")).isEmpty();
        assertThat(found(STAGE, "shipped")).containsExactlyInAnyOrder("search-1", "search-2");
        assertThat(found(CUSTOMER, "42")).isEmpty();
        assertThat(wf.runs(RunQuery.all().withAttribute(ROUND, 1L)).runs()).hasSize(2);
        assertThat(eventsOf("search-1", SearchAttributesUpdated.class))
                .extracting(SearchAttributesUpdated::attributes)
                .containsExactly(
                        List.of("stage=s:reserved"), List.of("round=l:1", "stage=s:shipped"), List.of("customer"));
    }

    @Test
    void aChangeThatContradictsTheHistoryHoldsTheRun() {
        worldflow(staged);
        wf.start(staged, "x", StartOptions.id("search-held"));
        awaitStatus("search-held", RunStatus.SLEEPING);

        Workflow<String, String> changed = Workflow.define("tck.search.staged", String.class, (ctx, in) -> {
            ctx.upsertSearchAttributes(SearchAttributes.of(STAGE, "booked"));
            ctx.sleep("wait", Duration.ofHours(1));
            return "done";
        });
        restart(changed);
        clock.advance(Duration.ofHours(1));

        RunInfo held = awaitRun("search-held", "held", RunInfo::isHeld);
        assertThat(held.held().type()).isEqualTo(NonDeterministicWorkflowException.class.getName());
        assertThat(held.held().message()).contains("reserved").contains("booked");
        assertThat(found(STAGE, "reserved")).containsExactly("search-held");
        assertThat(found(STAGE, "booked")).isEmpty();
    }

    @Test
    void aSuccessorKeepsItsPredecessorsAttributesAndAChildHasItsOwn() {
        Workflow<Integer, String> child = Workflow.define(
                "tck.search.child",
                Integer.class,
                (ctx, n) -> ctx.searchAttributes().toString());
        Workflow<Integer, String> looping = Workflow.define("tck.search.loop", Integer.class, (ctx, n) -> {
            ctx.upsertSearchAttributes(SearchAttributes.of(ROUND, (long) n));
            if (n < 3) {
                return ctx.continueAsNew(n + 1);
            }
            return ctx.child(
                    "child", child, n, ChildOptions.defaults().withSearchAttributes(SearchAttributes.of(STAGE, "kid")));
        });
        worldflow(looping, child);

        String result = wf.start(looping, 1, StartOptions.id("search-loop").withSearchAttribute(CUSTOMER, "42"))
                .result(WAIT);

        assertThat(result).isEqualTo("{stage=kid}");
        assertThat(found(CUSTOMER, "42")).containsExactly("search-loop~3", "search-loop~2", "search-loop");
        assertThat(wf.run("search-loop~3").orElseThrow().searchAttributes())
                .isEqualTo(SearchAttributes.of(CUSTOMER, "42").with(ROUND, 3L));
        assertThat(wf.runs(RunQuery.all().withAttribute(ROUND, 2L)).runs())
                .extracting(RunInfo::runId)
                .containsExactly("search-loop~2");
        assertThat(found(STAGE, "kid")).hasSize(1);
    }

    @Test
    void aScheduleStartsItsRunsWithItsAttributesAndKeepsThemAcrossARestart() {
        Workflow<String, String> report = Workflow.define(
                "tck.search.report",
                String.class,
                (ctx, in) -> ctx.searchAttributes().toString());
        worldflow(report);
        wf.schedules()
                .create(ScheduleSpec.every("search-nightly", Duration.ofHours(1), report, "r")
                        .withSearchAttributes(
                                SearchAttributes.of(STAGE, "report").with(ROUND, 7L)));

        String first = wf.schedules().trigger("search-nightly").orElseThrow();

        assertThat(wf.handle(first, String.class).result(WAIT)).isEqualTo("{round=7, stage=report}");
        assertThat(found(STAGE, "report")).containsExactly(first);
        // the spec as the world keeps it reads back with its attributes, in a worker that starts anew
        restart(report);
        assertThat(wf.schedules().describe("search-nightly").spec().searchAttributes())
                .isEqualTo(SearchAttributes.of(STAGE, "report").with(ROUND, 7L));
        clock.advance(Duration.ofMinutes(1)); // a trigger's run is named by its time
        String second = wf.schedules().trigger("search-nightly").orElseThrow();
        awaitStatus(second, RunStatus.COMPLETED);
        assertThat(wf.runs(RunQuery.all().withAttribute(ROUND, 7L)).runs())
                .extracting(RunInfo::runId)
                .containsExactlyInAnyOrder(first, second);
    }

    @Test
    void aChangeThatBreaksTheRulesIsRefusedAndRecordsNothing() {
        Workflow<String, String> wrong = Workflow.define("tck.search.wrong", String.class, (ctx, in) -> {
            StringBuilder errors = new StringBuilder();
            try {
                ctx.upsertSearchAttributes(SearchAttributes.empty().withValue("customer", 42L));
            } catch (IllegalArgumentException e) {
                errors.append(e.getMessage());
            }
            try {
                SearchAttributes many = SearchAttributes.empty();
                for (int i = 0; i < SearchAttributes.MAX_ATTRIBUTES; i++) {
                    many = many.with(SearchKey.forLong("n" + i), (long) i);
                }
                ctx.upsertSearchAttributes(many);
            } catch (IllegalArgumentException e) {
                errors.append(" / ").append(e.getMessage());
            }
            try {
                ctx.removeSearchAttributes("not a name");
            } catch (IllegalArgumentException e) {
                errors.append(" / ").append(e.getMessage());
            }
            return errors.toString();
        });
        worldflow(wrong);

        String errors = wf.start(wrong, "x", StartOptions.id("search-wrong").withSearchAttribute(CUSTOMER, "42"))
                .result(WAIT);

        assertThat(errors)
                .contains("'customer'")
                .contains("STRING")
                .contains("at most " + SearchAttributes.MAX_ATTRIBUTES)
                .contains("'not a name'");
        assertThat(eventsOf("search-wrong", SearchAttributesUpdated.class)).isEmpty();
        assertThat(wf.run("search-wrong").orElseThrow().searchAttributes())
                .isEqualTo(SearchAttributes.of(CUSTOMER, "42"));
    }
}
