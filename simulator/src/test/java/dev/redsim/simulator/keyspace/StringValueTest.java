package dev.redsim.simulator.keyspace;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class StringValueTest {
    @Test
    void editableCopiesAValueThatMayBeShared() {
        StringValue set = StringValue.of(bytes("123"));
        StringValue edit = StringValue.editable(set);
        assertThat(edit).isNotSameAs(set);
        edit.array()[0] = 'x';
        assertThat(set.bytes()).isEqualTo(bytes("123"));
        assertThat(edit.bytes()).isEqualTo(bytes("x23"));
        assertThat(edit.encoding()).isEqualTo("raw");
        assertThat(StringValue.editable(edit)).isSameAs(edit);
    }

    @Test
    void growingPadsWithZerosAndReadsSeeOnlyTheLength() {
        StringValue v = StringValue.editable(null);
        assertThat(v.growTo(3)).isTrue();
        v.array()[2] = 7;
        assertThat(v.growTo(2)).isFalse();
        assertThat(v.growTo(10)).isTrue();
        assertThat(v.length()).isEqualTo(10);
        assertThat(v.readArray().length).isGreaterThanOrEqualTo(10);
        assertThat(v.bytes()).containsExactly(0, 0, 7, 0, 0, 0, 0, 0, 0, 0);
        assertThat(v.growTo(11)).isTrue();
        assertThat(v.bytes()).hasSize(11);
    }

    @Test
    void copiesOfEditedValuesAreIndependent() {
        StringValue v = StringValue.editable(null);
        v.growTo(2);
        StringValue copy = (StringValue) v.copy();
        v.array()[0] = 1;
        assertThat(copy.bytes()).containsExactly(0, 0);
    }

    @Test
    void incrByFloatResultsAreNeverIntEncoded() {
        assertThat(StringValue.unencoded(bytes("12")).encoding()).isEqualTo("embstr");
        assertThat(StringValue.of(bytes("12")).encoding()).isEqualTo("int");
        assertThat(StringValue.unencoded(bytes("1".repeat(45))).encoding()).isEqualTo("raw");
    }

    /** INCR's numbers: their text as ll2string writes it, int-encoded, read back without a parse that fails. */
    @Test
    void integersKeepTheirTextAndReadBackAsNumbers() {
        java.util.Random random = new java.util.Random(32);
        long[] edges = {0, 1, -1, 9, 10, -10, 99, 100, 999_999_999_999_999_999L, 1_000_000_000_000_000_000L,
                Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1};
        for (int i = 0; i < 10_000; i++) {
            long n = i < edges.length ? edges[i] : random.nextLong() >> random.nextInt(64);
            StringValue v = StringValue.ofInteger(n);
            assertThat(v.bytes()).as("%d", n).isEqualTo(bytes(Long.toString(n)));
            assertThat(v.encoding()).isEqualTo("int");
            assertThat(v.isInteger()).isTrue();
            assertThat(v.longValue()).isEqualTo(n);
            StringValue set = StringValue.of(bytes(Long.toString(n)));
            assertThat(set.isInteger()).isTrue();
            assertThat(set.longValue()).isEqualTo(n);
        }
        for (String notInteger : new String[] {"", "-", "01", "+1", " 1", "1 ", "9223372036854775808", "1.0", "x"}) {
            StringValue v = StringValue.of(bytes(notInteger));
            assertThat(v.isInteger()).as(notInteger).isFalse();
            assertThat(v.isInteger()).as("asked again: " + notInteger).isFalse();
            assertThat(v.encoding()).isEqualTo("embstr");
        }
    }

    /** An edited value's bytes change under it: whether it reads as a number is never remembered from before. */
    @Test
    void anEditedValueIsReadAsANumberFromItsCurrentBytes() {
        StringValue v = StringValue.editable(StringValue.of(bytes("12")));
        assertThat(v.isInteger()).isTrue();
        v.array()[0] = 'x';
        assertThat(v.isInteger()).isFalse();
        v.array()[0] = '7';
        assertThat(v.isInteger()).isTrue();
        assertThat(v.longValue()).isEqualTo(72);
        assertThat(v.encoding()).isEqualTo("raw");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** The LFU data and the encoding flags share one int: writing either leaves the other as it was. */
    @Test
    void lfuDataAndEncodingFlagsShareAWordWithoutTouchingEachOther() {
        long now = 1_700_000_000_000L;
        StringValue edited = StringValue.editable(null);
        StringValue unencoded = StringValue.unencoded(bytes("12"));
        for (StringValue v : new StringValue[] {edited, unencoded}) {
            assertThat(v.frequency()).isEqualTo(AccessTracked.LFU_INITIAL);
            v.frequency(255, now);
            assertThat(v.frequency()).isEqualTo(255);
            assertThat(v.lfuDecayed(now + 3 * 60_000, 1)).as("decays by the minutes stored").isEqualTo(252);
            v.frequency(0, now);
            assertThat(v.frequency()).isZero();
        }
        assertThat(edited.encoding()).isEqualTo("raw");
        assertThat(unencoded.encoding()).isEqualTo("embstr");
        StringValue plain = StringValue.of(bytes("12"));
        plain.frequency(255, now);
        assertThat(plain.encoding()).isEqualTo("int");
    }
}
