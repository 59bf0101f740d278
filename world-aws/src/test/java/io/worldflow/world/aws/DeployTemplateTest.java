package io.worldflow.world.aws;

import com.fasterxml.jackson.databind.JsonNode;
import io.worldflow.NonRetryableException;
import io.worldflow.QueueSpec;
import io.worldflow.RunHandle;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.ScheduleSpec;
import io.worldflow.SearchAttributes;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.ManualClock;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import io.worldflow.runtime.WorldflowConfig;
import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldContext;
import io.worldflow.world.aws.DeployTemplate.Grant;
import io.worldflow.world.aws.DeployTemplate.TableShape;
import io.worldflow.world.aws.RequestRecorder.Call;
import io.worldflow.world.aws.internal.AwsSettings;
import io.worldflow.world.aws.internal.AwsWorld;
import io.worldflow.world.aws.internal.Tables;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.CreateQueueRequest;
import software.amazon.awssdk.services.sqs.model.Message;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * {@code deploy/template.yaml} against the code, so that the stack it deploys stays the one the code needs: its tables
 * and indexes are those the world creates, its wake-up queues are named and made as the world makes them, its functions
 * open the world without creating anything, and its roles grant every DynamoDB and SQS action the code calls, on the
 * resources it calls them on, and none it does not. The actions are found twice: in the sources, every call on an SDK
 * client ({@link ClientCallScan}), and in a workload run through the world with an interceptor recording each request
 * and what it acts on ({@link RequestRecorder}).
 */
class DeployTemplateTest {

    private static final Path TEMPLATE = Path.of("deploy", "template.yaml");
    private static final List<Path> SOURCES =
            List.of(Path.of("src", "main", "java"), Path.of("..", "world-aws-lambda", "src", "main", "java"));

    private static final List<String> QUEUES = List.of("default", "limited");

    /** Called only with worldflow.aws.create-resources on, which the template turns off. */
    private static final Set<String> CREATING =
            Set.of("dynamodb:CreateTable", "dynamodb:UpdateTable", "sqs:CreateQueue");

    /** What Lambda's event source mapping needs of the worker's role to poll a queue (besides what the code calls). */
    private static final Set<String> EVENT_SOURCE =
            Set.of("sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes");

    /** Called only by what consumes wake-ups (WakeConsumer, SqsTurnHandler), which the dashboard does not run. */
    private static final Set<String> CONSUMING =
            Set.of("sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility");

    private final AwsWorlds worlds = new AwsWorlds();
    private final String queuePrefix = worlds.prefix.replace('_', '-');
    private DeployTemplate template;

    @BeforeEach
    void read() throws IOException {
        template = DeployTemplate.read(
                TEMPLATE,
                Map.of(
                        "TablePrefix",
                        worlds.prefix,
                        "QueuePrefix",
                        queuePrefix,
                        "WorkflowQueues",
                        QUEUES,
                        "WorkerHandler",
                        "com.acme.OrdersHandler::handleRequest",
                        "DashboardToken",
                        "a-dashboard-token-of-enough-length",
                        "SignalSecret",
                        "a-signal-secret-of-at-least-32-bytes"));
    }

    @AfterEach
    void close() {
        worlds.close();
    }

    // ------------------------------------------------------------------------------------------------------------------

    @Test
    void tablesAreTheOnesTheWorldCreates() {
        try (AwsWorld world = open(worlds.config());
                DynamoDbClient dynamo = Emulators.shared().dynamoClient()) {
            Tables names = Tables.named(worlds.prefix);
            List<String> created = List.of(
                    names.runs(),
                    names.events(),
                    names.signals(),
                    names.signalKeys(),
                    names.schedules(),
                    names.queues(),
                    names.search());
            Map<String, TableShape> declared = template.tables();
            assertThat(declared.keySet())
                    .as("the tables the template declares, by name")
                    .containsExactlyInAnyOrderElementsOf(created);
            for (String name : created) {
                TableShape made = TableShape.of(
                        dynamo.describeTable(b -> b.tableName(name)).table());
                TableShape inTemplate = declared.get(name);
                assertThat(inTemplate.keys()).as("%s's key schema", name).isEqualTo(made.keys());
                assertThat(inTemplate.attributes())
                        .as("%s's attribute definitions", name)
                        .isEqualTo(made.attributes());
                assertThat(inTemplate.indexes().keySet())
                        .as("%s's indexes", name)
                        .containsExactlyInAnyOrderElementsOf(made.indexes().keySet());
                made.indexes()
                        .forEach((index, shape) -> assertThat(
                                        inTemplate.indexes().get(index))
                                .as("index %s of %s: keys, projection, projected attributes", index, name)
                                .isEqualTo(shape));
            }
        }
    }

    @Test
    void wakeQueuesAreNamedAndMadeAsTheWorldMakesThem() {
        Map<String, Map<String, String>> created = new ConcurrentHashMap<>();
        ExecutionInterceptor creations = new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                if (context.request() instanceof CreateQueueRequest r) {
                    created.put(r.queueName(), r.attributesAsStrings());
                }
            }
        };
        try (AwsWorld world = open(worlds.config(), creations)) {
            for (String queue : QUEUES) {
                world.wakeQueues().url(queue); // created as the world creates a missing queue
                String name = world.wakeQueues().queueName(queue);
                String id = template.wakeQueue(name);
                assertThat(created).as("the world created %s", name).containsKey(name);
                created.get(name)
                        .forEach((attribute, value) -> assertThat(template.text(id, attribute))
                                .as("%s's %s (the world creates it with %s)", name, attribute, value)
                                .isEqualTo(value));
                assertThat(template.deadLetterQueueOf(id))
                        .as(
                                "%s's dead-letter queue is named outside the queue prefix, which a worker's wake-up "
                                        + "consumer polls every queue of",
                                name)
                        .doesNotStartWith(queuePrefix);
            }
        }
    }

    @Test
    void functionsOpenTheWorldWithoutCreatingAnything() {
        Map<String, String> byEnvName = new TreeMap<>();
        new AwsWorldProvider().configKeys().keySet().forEach(k -> byEnvName.put(WorldflowConfig.envName(k), k));
        for (String function : List.of("WorkerFunction", "DashboardFunction")) {
            Map<String, String> env = template.environment(function);
            Map<String, String> config = new TreeMap<>();
            env.forEach((name, value) -> {
                if (name.startsWith("WORLDFLOW_AWS_")) {
                    assertThat(byEnvName)
                            .as(
                                    "%s's %s names a key of the aws world (as the runtime maps keys to variables)",
                                    function, name)
                            .containsKey(name);
                    config.put(byEnvName.get(name), value);
                }
            });
            assertThat(env).as("%s's environment", function).containsEntry("WORLDFLOW_WORLD", "aws");
            AwsSettings settings = AwsSettings.from(WorldConfig.of(config));
            assertThat(settings.createResources())
                    .as("%s runs with %s=false", function, AwsWorldProvider.CREATE_RESOURCES)
                    .isFalse();
            assertThat(settings.tablePrefix()).as("%s's table prefix", function).isEqualTo(worlds.prefix);
            assertThat(settings.queuePrefix()).as("%s's queue prefix", function).isEqualTo(queuePrefix);
            assertThat(settings.region()).as("%s's region", function).isEqualTo(DeployTemplate.REGION);
        }
        Map<String, String> worker = template.environment("WorkerFunction");
        assertThat(worker)
                .as("the worker serves the queues that trigger it")
                .containsEntry(WorldflowConfig.envName(WorkerOptions.QUEUES), String.join(",", QUEUES));
        assertThat(worker)
                .as("the worker leaves consume-wakes to SqsTurnHandler: the environment would override its false")
                .doesNotContainKey(WorldflowConfig.envName(AwsWorldProvider.CONSUME_WAKES));
        assertThat(template.environment("DashboardFunction"))
                .as("the dashboard runs no worker, and consumes no wake-ups")
                .containsEntry(WorldflowConfig.envName(AwsWorldProvider.CONSUME_WAKES), "false");
    }

    @Test
    void everyWakeQueueTriggersTheWorkerWithPartialBatchResponses() {
        List<Grant> worker = template.grantsOf("WorkerRole");
        for (String queue : QUEUES) {
            String id = template.wakeQueue(queuePrefix + queue);
            String arn = template.arnOf(id);
            List<JsonNode> triggers = template.resourcesOfType("AWS::Lambda::EventSourceMapping").values().stream()
                    .filter(m ->
                            arn.equals(template.resolve(m.path("Properties").path("EventSourceArn"))))
                    .toList();
            assertThat(triggers).as("event source mappings of %s", arn).hasSize(1);
            JsonNode trigger = triggers.getFirst().path("Properties");
            assertThat(trigger.path("FunctionName").path("Ref").asText()).isEqualTo("WorkerFunction");
            assertThat(DeployTemplate.strings(template.resolve(trigger.path("FunctionResponseTypes"))))
                    .as("the trigger of %s reports batch item failures (SqsTurnHandler returns them)", queue)
                    .contains("ReportBatchItemFailures");
            assertThat(Integer.parseInt(template.text(trigger, "BatchSize"))).isBetween(1, 10);
            assertThat(Integer.parseInt(template.text(id, "VisibilityTimeout")))
                    .as("Lambda refuses a queue whose visibility timeout is below the function's timeout")
                    .isGreaterThanOrEqualTo(Integer.parseInt(template.text("WorkerFunction", "Timeout")));
            for (String action : EVENT_SOURCE) {
                assertThat(worker.stream().anyMatch(g -> g.allows(action, arn)))
                        .as("the worker's role grants %s on %s, which its event source mapping needs", action, arn)
                        .isTrue();
            }
        }
    }

    @Test
    void noRoleGrantsAWildcardActionOrEveryTableOrQueue() {
        for (String role : List.of("WorkerRole", "DashboardRole")) {
            for (Grant g : template.grantsOf(role)) {
                assertThat(g.actions())
                        .as("%s: actions are named one by one", g.where())
                        .noneMatch(a -> a.contains("*"));
                boolean data = g.actions().stream().anyMatch(a -> a.startsWith("dynamodb:") || a.startsWith("sqs:"));
                if (data && !g.actions().equals(Set.of(RequestRecorder.LIST_QUEUES))) {
                    assertThat(g.resources())
                            .as("%s: DynamoDB and SQS actions name their tables and queues", g.where())
                            .noneMatch(r -> r.equals("*") || r.endsWith(":*") || r.endsWith(":table/*"));
                }
            }
        }
    }

    @Test
    void rolesGrantEveryActionTheSourcesCallAndNoOther() throws IOException {
        Map<String, String> called = ClientCallScan.actionsCalledIn(SOURCES);
        assertThat(called)
                .as("the scan of the sources finds the SDK calls (else it no longer knows how the code holds them)")
                .containsKeys("dynamodb:GetItem", "dynamodb:Query", "sqs:SendMessage");

        Map<String, String> worker = new TreeMap<>(called);
        CREATING.forEach(worker::remove);
        EVENT_SOURCE.forEach(a -> worker.putIfAbsent(a, "Lambda's event source mapping"));
        checkGranted("WorkerRole", worker);

        Map<String, String> dashboard = new TreeMap<>(called);
        CREATING.forEach(dashboard::remove);
        CONSUMING.forEach(dashboard::remove);
        checkGranted("DashboardRole", dashboard);
    }

    private void checkGranted(String role, Map<String, String> needed) {
        Set<String> granted = template.grantsOf(role).stream()
                .flatMap(g -> g.actions().stream())
                .filter(a -> a.startsWith("dynamodb:") || a.startsWith("sqs:"))
                .collect(Collectors.toCollection(TreeSet::new));
        List<String> missing = needed.keySet().stream()
                .filter(a -> !granted.contains(a))
                .map(a -> a + " (called in " + needed.get(a) + ")")
                .toList();
        assertThat(missing)
                .as("actions the code calls that %s does not grant in %s", role, TEMPLATE)
                .isEmpty();
        assertThat(granted.stream().filter(a -> !needed.containsKey(a)).toList())
                .as("actions %s grants that nothing it runs calls", role)
                .isEmpty();
    }

    // ------------------------------------------------------------------------------------------------------------------

    @Test
    @Timeout(180)
    void aWorkloadCallsNothingTheRolesDoNotGrant() throws Exception {
        // the tables and queues, as the stack would have made them
        try (AwsWorld creator = open(worlds.config())) {
            QUEUES.forEach(creator.wakeQueues()::url);
        }
        WorldConfig production = worlds.config().with(AwsWorldProvider.CREATE_RESOURCES, "false");
        RequestRecorder workerCalls = new RequestRecorder();
        RequestRecorder dashboardCalls = new RequestRecorder();
        AwsWorld workerWorld = open(production, workerCalls);
        AwsWorld dashboardWorld = open(production.with(AwsWorldProvider.CONSUME_WAKES, "false"), dashboardCalls);
        try {
            asTheLambdaHandlerDoes(workerWorld);
            workload(workerWorld, dashboardWorld);
        } finally {
            workerWorld.close();
            dashboardWorld.close();
        }

        List<Call> all = Stream.concat(workerCalls.calls.stream(), dashboardCalls.calls.stream())
                .toList();
        Set<String> scanned = ClientCallScan.actionsCalledIn(SOURCES).keySet();
        assertThat(all.stream()
                        .map(Call::action)
                        .filter(a -> !scanned.contains(a))
                        .distinct()
                        .toList())
                .as("actions the workload made that the scan of the sources did not find (the scan misses a way the "
                        + "code calls the SDK)")
                .isEmpty();
        assertThat(all.stream().map(Call::action).collect(Collectors.toSet()))
                .as("the workload reaches every kind of call")
                .containsAll(List.of(
                        "dynamodb:DescribeTable",
                        "dynamodb:GetItem",
                        "dynamodb:BatchGetItem",
                        "dynamodb:Query",
                        "dynamodb:PutItem",
                        "dynamodb:UpdateItem",
                        "dynamodb:DeleteItem",
                        "dynamodb:ConditionCheckItem",
                        "dynamodb:BatchWriteItem",
                        RequestRecorder.LIST_QUEUES,
                        "sqs:GetQueueUrl",
                        "sqs:SendMessage",
                        "sqs:ReceiveMessage",
                        "sqs:DeleteMessage",
                        "sqs:ChangeMessageVisibility"));

        // a run in a queue with limits waits in a queue of the runtime's own (QueueRunner.WAITING): the world sends
        // it a wake-up no worker receives, to an SQS queue no one creates; the lookup fails, is logged, changes nothing
        Set<String> waitingQueues = new TreeSet<>();
        QUEUES.forEach(q -> waitingQueues.add(
                DeployTemplate.queueArn(workerWorld.wakeQueues().queueName(q + "\u001Fwaiting"))));
        checkAllowed("WorkerRole", workerCalls, waitingQueues);
        checkAllowed("DashboardRole", dashboardCalls, waitingQueues);
    }

    private void checkAllowed(String role, RequestRecorder recorder, Set<String> waitingQueues) {
        List<Grant> grants = template.grantsOf(role);
        List<String> refused = recorder.calls.stream()
                .filter(c -> grants.stream().noneMatch(g -> g.allows(c.action(), c.resource())))
                .filter(c -> !(c.action().equals("sqs:GetQueueUrl") && waitingQueues.contains(c.resource())))
                .map(c -> c.action() + " on " + c.resource() + " (" + c.operation() + ")")
                .distinct()
                .sorted()
                .toList();
        assertThat(refused)
                .as("calls of the workload that %s in %s does not allow", role, TEMPLATE)
                .isEmpty();
    }

    /** What SqsTurnHandler does with a record: extends its visibility, and asks whether its run still has a turn. */
    private void asTheLambdaHandlerDoes(AwsWorld world) {
        AwsWakeUps wakes = AwsWakeUps.of(world).orElseThrow();
        wakes.sendAgain("default", "no-such-run", wakes.now());
        try (SqsClient sqs = sqsClient()) {
            String name = queuePrefix + "default";
            String url = sqs.getQueueUrl(b -> b.queueName(name)).queueUrl();
            List<Message> got = List.of();
            for (int i = 0; i < 10 && got.isEmpty(); i++) {
                got = sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(1))
                        .messages();
            }
            assertThat(got).as("the wake-up sent").isNotEmpty();
            for (Message m : got) {
                wakes.extendVisibility(name, m.receiptHandle(), Duration.ofSeconds(30));
                assertThat(wakes.hasTurnDueBy(m.body(), wakes.now())).isFalse();
                sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
            }
        }
    }

    /**
     * A little of everything: a worker runs runs with steps, search attributes, a child, a timer, a signal, a queue with
     * limits, a failure retried, a schedule; a process without a worker (the dashboard) lists, counts, starts, signals,
     * makes and revokes a signal URL, cancels and retries; finished runs are purged.
     */
    private void workload(AwsWorld workerWorld, AwsWorld dashboardWorld) {
        AtomicInteger failures = new AtomicInteger();
        Workflow<String, String> child =
                Workflow.define("deploy.child", String.class, (ctx, in) -> ctx.step("echo", () -> in));
        Workflow<String, String> parent = Workflow.define("deploy.parent", String.class, (ctx, in) -> {
            ctx.upsertSearchAttributes(SearchAttributes.of(Map.of("customer", in)));
            String kid = ctx.child("kid", child, in);
            ctx.sleep("nap", Duration.ofMinutes(1));
            String go = ctx.awaitSignal("go", String.class);
            return ctx.step("done", () -> kid + go);
        });
        Workflow<String, String> failing = Workflow.define(
                "deploy.fails",
                String.class,
                (ctx, in) -> ctx.step("once", () -> {
                    if (failures.getAndIncrement() == 0) {
                        throw new NonRetryableException("fails the first time");
                    }
                    return "ok";
                }));
        ManualClock clock = worlds.clock;
        try (Worldflow wf = worldflow(workerWorld, child, parent, failing);
                Worldflow dashboard = worldflow(dashboardWorld)) {
            wf.startWorker(WorkerOptions.defaults()
                    .withHandleSigterm(false)
                    .withQueues(Set.copyOf(QUEUES))
                    .withPollInterval(Duration.ofMillis(50))
                    .withShutdownGrace(Duration.ofSeconds(2))
                    .withWorkerId("deploy"));

            RunHandle<String> first = wf.start(parent, "acme", StartOptions.id("first"));
            RunHandle<String> second = wf.start(parent, "globex", StartOptions.id("second"));
            awaitStatus(wf, first.id(), RunStatus.SLEEPING);
            awaitStatus(wf, second.id(), RunStatus.SLEEPING);
            clock.advance(Duration.ofMinutes(2));
            awaitStatus(wf, first.id(), RunStatus.WAITING);
            assertThat(dashboard.signal(first.id(), "go", "!", "approval-1")).isTrue();
            assertThat(first.result(Duration.ofSeconds(30))).isEqualTo("acme!");

            URI url = dashboard.signalUrl(second.id(), "go", Duration.ofMinutes(5), true);
            dashboard.revokeSignalUrl(url);
            dashboard.cancel(second.id(), "not needed");
            awaitStatus(wf, second.id(), RunStatus.CANCELED);

            wf.queues().define(QueueSpec.named("limited").withConcurrency(1));
            RunHandle<String> limited = wf.start(child, "in line", StartOptions.queue("limited"));
            assertThat(limited.result(Duration.ofSeconds(30))).isEqualTo("in line");
            dashboard.queues().list();
            workerWorld.taskQueue().waiting("limited", 10);

            RunHandle<String> retried = wf.start(failing, "x");
            awaitStatus(wf, retried.id(), RunStatus.FAILED);
            dashboard.retry(retried.id(), "once more");
            assertThat(retried.result(Duration.ofSeconds(30))).isEqualTo("ok");

            dashboard.submit("deploy.child", "from the dashboard", StartOptions.defaults());
            wf.schedules().create(ScheduleSpec.every("tick", Duration.ofHours(1), child, "tock"));
            dashboard.schedules().list();
            dashboard.schedules().pause("tick");
            dashboard.schedules().resume("tick");
            dashboard.schedules().trigger("tick");
            wf.schedules().delete("tick");

            for (Worldflow reader : List.of(wf, dashboard)) {
                reader.runs(RunQuery.all());
                reader.runs(RunQuery.all().withStatuses(RunStatus.COMPLETED));
                reader.runs(RunQuery.all().withWorkflow("deploy.parent"));
                reader.runs(RunQuery.all().withAttributes(SearchAttributes.of(Map.of("customer", "acme"))));
                reader.runs(RunQuery.all().withParent(first.id()));
                reader.runs(RunQuery.all().withHeld(true));
                reader.runs(RunQuery.all().withQueue("limited"));
                reader.counts(RunQuery.all());
                reader.run(first.id());
                reader.events(first.id());
            }
            awaitTrue(
                    "every run finished",
                    () -> wf.counts(RunQuery.all()).entrySet().stream()
                            .allMatch(e -> e.getKey().isTerminal() || e.getValue() == 0));
            clock.advance(Duration.ofSeconds(1));
            assertThat(workerWorld.eventLog().purgeFinished(clock.instant(), 100))
                    .isPositive();
        } // closes both worlds
    }

    private Worldflow worldflow(AwsWorld world, Workflow<?, ?>... workflows) {
        Worldflow.Builder b = Worldflow.builder()
                .world(world)
                .clock(worlds.clock)
                .property(Worldflow.SIGNAL_SECRET, "a-signal-secret-of-at-least-32-bytes")
                .property(Worldflow.SIGNAL_URL, "https://dashboard.example");
        for (Workflow<?, ?> w : workflows) {
            b.register(w);
        }
        return b.build();
    }

    private static void awaitStatus(Worldflow wf, String runId, RunStatus status) {
        awaitTrue(
                "run " + runId + " is " + status,
                () -> wf.run(runId).orElseThrow().status() == status);
    }

    private static void awaitTrue(String what, BooleanSupplier condition) {
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                fail("timed out waiting until " + what);
            }
            LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
        }
    }

    private AwsWorld open(WorldConfig config, ExecutionInterceptor... interceptors) {
        return AwsWorld.open(new WorldContext(config, worlds.clock, worlds.codec.eventCodec()), List.of(interceptors));
    }

    private static SqsClient sqsClient() {
        return SqsClient.builder()
                .endpointOverride(URI.create(Emulators.shared().sqsEndpoint()))
                .region(Region.of(DeployTemplate.REGION))
                .httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .build();
    }
}
