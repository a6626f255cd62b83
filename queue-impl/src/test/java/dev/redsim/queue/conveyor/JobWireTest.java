package dev.redsim.queue.conveyor;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The hand-written codec against protobuf's encoding rules, one field type at a time (bytes worked out by hand). */
class JobWireTest {
    private static final HexFormat HEX = HexFormat.of();

    private static String hex(Job job) {
        return HEX.formatHex(JobWire.encode(job));
    }

    private static Job empty() {
        return new Job("", "", "", null, null, "", "", null, 0, 0, "", JobStatus.ENQUEUED);
    }

    @Test
    void proto3DefaultsAreNotWritten() {
        assertThat(JobWire.encode(empty())).isEmpty();
        assertThat(JobWire.decode(new byte[0])).usingRecursiveComparison().isEqualTo(empty());
    }

    @Test
    void stringsAndBytesAreLengthDelimitedWithTheirFieldNumbers() {
        assertThat(hex(empty().withUuid("ab"))).isEqualTo("0a026162");
        assertThat(hex(Job.of("q", new byte[] {0, (byte) 0xff}))).isEqualTo("1a01712202" + "00ff");
        assertThat(hex(empty().withParent("p").withPredecessor("s"))).isEqualTo("3201703a0173");
    }

    @Test
    void varintsUseSevenBitGroupsAndNegativeInt32TakesTenBytes() {
        Job retry150 = new Job("", "", "", null, null, "", "", null, 150, 0, "", JobStatus.ENQUEUED);
        assertThat(hex(retry150)).isEqualTo("489601");
        Job negative = new Job("", "", "", null, null, "", "", null, -1, 0, "", JobStatus.ENQUEUED);
        assertThat(hex(negative)).isEqualTo("48ffffffffffffffffff01");
        assertThat(JobWire.decode(JobWire.encode(negative)).retry()).isEqualTo(-1);
        assertThat(hex(empty().withMaxRetries(3))).isEqualTo("5003");
    }

    @Test
    void enumsAreVarintsAndTimestampsNestedMessages() {
        Job done = new Job("", "", "", null, null, "", "", null, 0, 0, "x", JobStatus.COMPLETED);
        assertThat(hex(done)).isEqualTo("5a01786002");
        assertThat(hex(empty().withRunAt(Instant.ofEpochSecond(1, 5)))).isEqualTo("2a0408011005");
        // A set timestamp equal to the epoch is still present (an empty message), unlike an unset one.
        assertThat(hex(empty().withRunAt(Instant.EPOCH))).isEqualTo("2a00");
        assertThat(JobWire.decode(HEX.parseHex("2a00")).runAt()).isEqualTo(Instant.EPOCH);
    }

    @Test
    void everyFieldRoundTrips() {
        Job job = new Job("u-1", "email", "mail", "héllo".getBytes(), Instant.ofEpochMilli(1_700_000_000_123L),
                "parent", "pred", Instant.ofEpochSecond(1_700_000_001L, 999_999_999), 2, 5, "boom",
                JobStatus.FAILED);
        Job back = JobWire.decode(JobWire.encode(job));
        assertThat(back).usingRecursiveComparison().isEqualTo(job);
    }

    @Test
    void unknownFieldsOfEveryWireTypeAreSkipped() {
        // field 99 varint 1, field 100 fixed32, field 101 fixed64, field 102 length-delimited "zz", then uuid "ab"
        String unknown = "980601" + "a50601020304" + "a9060102030405060708" + "b206027a7a";
        assertThat(JobWire.decode(HEX.parseHex(unknown + "0a026162")).uuid()).isEqualTo("ab");
    }

    @Test
    void malformedInputIsAMarshallingError() {
        assertThatThrownBy(() -> JobWire.decode(HEX.parseHex("0a05ab"))).isInstanceOf(MarshalException.class);
        assertThatThrownBy(() -> JobWire.decode(HEX.parseHex("0801"))).isInstanceOf(MarshalException.class);
        assertThatThrownBy(() -> JobWire.decode(HEX.parseHex("6009"))).isInstanceOf(MarshalException.class);
        assertThatThrownBy(() -> JobWire.decode(HEX.parseHex("48ff"))).isInstanceOf(MarshalException.class);
    }
}
