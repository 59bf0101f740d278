package io.worldflow.format;

import io.worldflow.ChainReport;
import io.worldflow.SerializationException;
import io.worldflow.spi.StoredLog;
import io.worldflow.spi.StoredRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LogChainTest {

    private static final String RUN = "order-1";

    /** A log of records seq 0, 1..3, 4, 5..6 as a world writes it, each linked over the one before. */
    private static StoredLog written() {
        List<StoredRecord> records = new ArrayList<>();
        byte[] head = null;
        long[][] ranges = {{0, 0}, {1, 3}, {4, 4}, {5, 6}};
        for (long[] r : ranges) {
            String text = "[{\"type\":\"E\",\"n\":" + r[0] + "}]";
            head = LogChain.link(RUN, head, r[0], r[1], text);
            records.add(new StoredRecord(r[0], r[1], text, head));
        }
        return new StoredLog(RUN, 7, head, records);
    }

    private static StoredLog with(StoredLog log, List<StoredRecord> records, long length, byte[] head) {
        return new StoredLog(log.runId(), length, head, records);
    }

    @Test
    void theLinkIsTheDocumentedFormulaSoAnyoneCanRecomputeIt() throws Exception {
        String text = "[{\"type\":\"WorkflowStarted\"}]";
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        byte[] genesis = sha.digest("worldflow-log:order-1".getBytes(StandardCharsets.UTF_8));
        byte[] digest = sha.digest(text.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 1);
        sha.update(genesis);
        sha.update(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        sha.update(digest);
        byte[] expected = sha.digest();

        byte[] link = LogChain.link(RUN, null, 0, 0, text);

        assertThat(link).hasSize(LogChain.LINK_BYTES);
        assertThat(link[0]).isEqualTo((byte) LogChain.VERSION);
        assertThat(HexFormat.of().formatHex(link, 1, 33))
                .isEqualTo(HexFormat.of().formatHex(expected));
        assertThat(LogChain.link("order-2", null, 0, 0, text))
                .as("a record is bound to its run")
                .isNotEqualTo(link);
    }

    @Test
    void aLogAsWrittenHolds() {
        ChainReport report = LogChain.verify(written());

        assertThat(report.intact()).isTrue();
        assertThat(report.chainedFrom()).isZero();
        assertThat(report.head()).isEqualTo(LogChain.hex(written().head()));
    }

    @Test
    void aChangedByteIsFoundAtItsRecord() {
        StoredLog log = written();
        List<StoredRecord> records = new ArrayList<>(log.records());
        StoredRecord r = records.get(2);
        records.set(2, new StoredRecord(r.seq(), r.lastSeq(), r.text().replace("4", "5"), r.link()));

        ChainReport report = LogChain.verify(with(log, records, 7, log.head()));

        assertThat(report.brokenAt()).isEqualTo(4);
        assertThat(report.problem()).contains("seq 4", "does not match its link");
    }

    @Test
    void aRemovedRecordIsFoundWhereItWas() {
        StoredLog log = written();
        List<StoredRecord> records = new ArrayList<>(log.records());
        records.remove(1);

        ChainReport report = LogChain.verify(with(log, records, 7, log.head()));

        assertThat(report.brokenAt()).isEqualTo(1);
        assertThat(report.problem()).contains("seq 1..3 are missing");
    }

    @Test
    void aRenumberedRecordOrASwappedPairNoLongerMatches() {
        StoredLog log = written();
        List<StoredRecord> records = new ArrayList<>(log.records());
        StoredRecord b = records.get(1);
        StoredRecord c = records.get(2);
        // c's content and link moved in front of b's, the seq ranges adjusted so that they still follow on
        records.set(1, new StoredRecord(1, 1, c.text(), c.link()));
        records.set(2, new StoredRecord(2, 4, b.text(), b.link()));

        assertThat(LogChain.verify(with(log, records, 7, log.head())).brokenAt())
                .isEqualTo(1);
    }

    @Test
    void aTruncatedTailAndAHeadRolledBackAreFound() {
        StoredLog log = written();
        List<StoredRecord> shorter = log.records().subList(0, 3);

        ChainReport cut = LogChain.verify(with(log, shorter, 7, log.head()));
        assertThat(cut.brokenAt()).isEqualTo(5);
        assertThat(cut.problem()).contains("seq 5..6 are missing");

        // cut and made consistent with the length: the head still tells
        ChainReport consistent = LogChain.verify(with(log, shorter, 5, log.head()));
        assertThat(consistent.brokenAt()).isEqualTo(4);
        assertThat(consistent.problem()).contains("head does not match");

        ChainReport rolledBack =
                LogChain.verify(with(log, log.records(), 7, log.records().get(1).link()));
        assertThat(rolledBack.brokenAt()).isEqualTo(6);
        assertThat(rolledBack.problem()).contains("head does not match");

        assertThat(LogChain.verify(with(log, log.records(), 7, null)).problem()).contains("no head");

        ChainReport emptied = LogChain.verify(with(log, List.of(), 7, log.head()));
        assertThat(emptied.brokenAt()).isEqualTo(0);
        assertThat(emptied.problem())
                .isEqualTo("the log holds no record but the run's length is 7: events seq 0..6 are missing");
    }

    @Test
    void recordsWrittenBeforeTheChainPrecedeItButNoneMayFollowIt() {
        StoredLog log = written();
        List<StoredRecord> records = new ArrayList<>();
        records.add(new StoredRecord(0, 0, "[{\"legacy\":0}]", null));
        records.add(new StoredRecord(1, 2, "[{\"legacy\":1}]", null));
        byte[] link = LogChain.link(RUN, null, 3, 3, "[{\"new\":3}]");
        records.add(new StoredRecord(3, 3, "[{\"new\":3}]", link));

        ChainReport legacy = LogChain.verify(with(log, records, 4, link));
        assertThat(legacy.intact()).isTrue();
        assertThat(legacy.chainedFrom()).isEqualTo(3);

        List<StoredRecord> stripped = new ArrayList<>(log.records());
        StoredRecord r = stripped.get(2);
        stripped.set(2, new StoredRecord(r.seq(), r.lastSeq(), r.text(), null));
        ChainReport report = LogChain.verify(with(log, stripped, 7, log.head()));
        assertThat(report.brokenAt()).isEqualTo(4);
        assertThat(report.problem()).contains("has no link");
    }

    @Test
    void anExportReadsBackAndChecksAndABadOneIsAClearError() {
        String export = LogChain.export(written());

        StoredLog read = LogChain.read(export);

        assertThat(LogChain.verify(read).intact()).isTrue();
        assertThat(read.records())
                .extracting(StoredRecord::text)
                .containsExactlyElementsOf(
                        written().records().stream().map(StoredRecord::text).toList());
        assertThatThrownBy(() -> LogChain.read("[1,2]"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("not a log export");
        assertThatThrownBy(() -> LogChain.read(export.replace("\"chain\" : 1", "\"chain\" : 2")))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("chain version 2");
        assertThatThrownBy(() -> LogChain.read(export.replaceFirst("\"link\" : \"01", "\"link\" : \"zz")))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("not hex");
    }

    private static final ChainKey KEY = ChainKey.of("0123456789abcdef0123456789abcdef".getBytes());
    private static final ChainKey OTHER_KEY = ChainKey.of("fedcba9876543210fedcba9876543210".getBytes());

    /** The same log, its links keyed. */
    private static StoredLog keyed(ChainKey key) {
        List<StoredRecord> records = new ArrayList<>();
        byte[] head = null;
        for (StoredRecord r : written().records()) {
            head = LogChain.link(RUN, head, r.seq(), r.lastSeq(), LogChain.digest(r.text()), key);
            records.add(new StoredRecord(r.seq(), r.lastSeq(), r.text(), head));
        }
        return new StoredLog(RUN, 7, head, records);
    }

    @Test
    void aKeyedChainChecksWithItsKeyOnlyAndAForgeryWithoutTheKeyIsFound() {
        StoredLog log = keyed(KEY);

        assertThat(log.records()).allSatisfy(r -> assertThat(r.link()[0]).isEqualTo((byte) LogChain.KEYED_VERSION));
        assertThat(LogChain.verify(log, KEY).intact()).isTrue();
        ChainReport withoutKey = LogChain.verify(log);
        assertThat(withoutKey.brokenAt()).isZero();
        assertThat(withoutKey.problem()).contains("keyed link", ChainKey.KEY);
        ChainReport wrongKey = LogChain.verify(log, OTHER_KEY);
        assertThat(wrongKey.brokenAt()).isZero();
        assertThat(wrongKey.problem()).contains("the key given is not its chain's");

        // someone with the database but not the key changes a record and remakes every later link as best they can
        List<StoredRecord> forged = new ArrayList<>(log.records().subList(0, 2));
        byte[] head = forged.getLast().link();
        for (StoredRecord r : log.records().subList(2, 4)) {
            String text = r.seq() == 4 ? r.text().replace("4", "5") : r.text();
            head = LogChain.link(RUN, head, r.seq(), r.lastSeq(), LogChain.digest(text), OTHER_KEY);
            forged.add(new StoredRecord(r.seq(), r.lastSeq(), text, head));
        }
        ChainReport found = LogChain.verify(new StoredLog(RUN, 7, head, forged), KEY);
        assertThat(found.brokenAt()).isEqualTo(4);
    }

    @Test
    void aChainKeyedPartWayChecksWithTheKeyAcrossBothKindsOfLink() {
        StoredLog plain = written();
        List<StoredRecord> records = new ArrayList<>(plain.records().subList(0, 2));
        byte[] head = records.getLast().link();
        for (StoredRecord r : plain.records().subList(2, 4)) {
            head = LogChain.link(RUN, head, r.seq(), r.lastSeq(), LogChain.digest(r.text()), KEY);
            records.add(new StoredRecord(r.seq(), r.lastSeq(), r.text(), head));
        }

        // the key came in part-way: only a lenient check lets the records before it pass
        assertThat(LogChain.verify(new StoredLog(RUN, 7, head, records), KEY.lenient())
                        .intact())
                .isTrue();
        ChainReport required = LogChain.verify(new StoredLog(RUN, 7, head, records), KEY);
        assertThat(required.brokenAt()).isZero();
        assertThat(required.problem()).contains("unkeyed link", ChainKey.REQUIRED);
        assertThat(LogChain.verify(new StoredLog(RUN, 7, head, records)).brokenAt())
                .isEqualTo(4);
    }

    @Test
    void withTheKeyRequiredARunStrippedOfItsLinksOrRelinkedWithoutTheKeyIsFound() {
        StoredLog log = keyed(KEY);
        // every link stripped, the run made to look written before the chain existed
        List<StoredRecord> stripped = log.records().stream()
                .map(r -> new StoredRecord(r.seq(), r.lastSeq(), r.text().replace("4", "5"), null))
                .toList();
        StoredLog strippedLog = new StoredLog(RUN, 7, null, stripped);
        assertThat(LogChain.verify(strippedLog, KEY).brokenAt()).isZero();
        assertThat(LogChain.verify(strippedLog, KEY).problem()).contains("has no link", ChainKey.REQUIRED);
        // every link remade as one anyone can make, over an edited record
        List<StoredRecord> relinked = new ArrayList<>();
        byte[] head = null;
        for (StoredRecord r : log.records()) {
            String text = r.seq() == 4 ? r.text().replace("4", "5") : r.text();
            head = LogChain.link(RUN, head, r.seq(), r.lastSeq(), text);
            relinked.add(new StoredRecord(r.seq(), r.lastSeq(), text, head));
        }
        StoredLog relinkedLog = new StoredLog(RUN, 7, head, relinked);
        assertThat(LogChain.verify(relinkedLog, KEY).problem()).contains("unkeyed link", ChainKey.REQUIRED);
        // a lenient check takes both as written before the key, which is what it gives up
        assertThat(LogChain.verify(strippedLog, KEY.lenient()).intact()).isTrue();
        assertThat(LogChain.verify(relinkedLog, KEY.lenient()).intact()).isTrue();
        // but not an unkeyed link after keyed ones, even leniently
        List<StoredRecord> tail = new ArrayList<>(log.records().subList(0, 2));
        head = tail.getLast().link();
        for (StoredRecord r : log.records().subList(2, 4)) {
            String text = r.seq() == 4 ? r.text().replace("4", "5") : r.text();
            head = LogChain.link(RUN, head, r.seq(), r.lastSeq(), text);
            tail.add(new StoredRecord(r.seq(), r.lastSeq(), text, head));
        }
        ChainReport downgraded = LogChain.verify(new StoredLog(RUN, 7, head, tail), KEY.lenient());
        assertThat(downgraded.brokenAt()).isEqualTo(4);
        assertThat(downgraded.problem()).contains("unkeyed link after keyed ones");
    }

    @Test
    void aChainKeyIsBase64OfThirtyTwoBytesAtLeastAndABadOneIsAClearError() {
        String good = java.util.Base64.getEncoder().encodeToString(new byte[32]);
        assertThat(ChainKey.fromConfig(io.worldflow.spi.WorldConfig.of(java.util.Map.of())))
                .isEmpty();
        assertThat(ChainKey.fromConfig(io.worldflow.spi.WorldConfig.of(java.util.Map.of(ChainKey.KEY, good))))
                .isPresent();
        assertThatThrownBy(() -> ChainKey.fromConfig(io.worldflow.spi.WorldConfig.of(java.util.Map.of(
                        ChainKey.KEY, java.util.Base64.getEncoder().encodeToString(new byte[16])))))
                .isInstanceOf(io.worldflow.ConfigurationException.class)
                .hasMessageContaining(ChainKey.KEY)
                .hasMessageContaining("16 bytes");
        assertThat(ChainKey.fromConfig(io.worldflow.spi.WorldConfig.of(java.util.Map.of(ChainKey.KEY, good)))
                        .orElseThrow()
                        .required())
                .isTrue();
        assertThat(ChainKey.fromConfig(io.worldflow.spi.WorldConfig.of(
                                java.util.Map.of(ChainKey.KEY, good, ChainKey.REQUIRED, "false")))
                        .orElseThrow()
                        .required())
                .isFalse();
        assertThatThrownBy(() -> ChainKey.fromConfig(
                        io.worldflow.spi.WorldConfig.of(java.util.Map.of(ChainKey.KEY, "not base64!"))))
                .isInstanceOf(io.worldflow.ConfigurationException.class)
                .hasMessageContaining("not base64");
        assertThat(KEY.toString()).doesNotContain("0123");
    }
}
