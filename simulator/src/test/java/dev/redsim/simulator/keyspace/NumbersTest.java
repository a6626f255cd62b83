package dev.redsim.simulator.keyspace;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class NumbersTest {
    /** ll2string's text of every kind of number, from the digits written straight into the array. */
    @Test
    void integersAreWrittenAsTheirDecimalText() {
        Random random = new Random(2032);
        long[] edges = {0, 1, -1, 9, -9, 10, 99, 100, 999_999_999_999_999_999L, 1_000_000_000_000_000_000L,
                Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1};
        for (long n : edges) {
            assertThat(Numbers.toBytes(n)).as("%d", n).isEqualTo(ascii(Long.toString(n)));
        }
        for (int i = 0; i < 100_000; i++) {
            long n = random.nextLong() >> random.nextInt(64);
            assertThat(Numbers.toBytes(n)).as("%d", n).isEqualTo(ascii(Long.toString(n)));
        }
    }

    /**
     * A short integer score takes the shortcut around the text parsing: it must read as strtod reads it, and what is
     * not a strict integer ("-0", "+1", "007", " 1") still goes the long way with its own answer.
     */
    @Test
    void shortIntegersReadAsTheSameDoubleAsTheirText() {
        Random random = new Random(2033);
        for (int i = 0; i < 100_000; i++) {
            long n = random.nextLong() >> (15 + random.nextInt(49)); // up to 15 digits
            String text = Long.toString(n);
            assertThat(Numbers.parseDouble(ascii(text))).as(text).isEqualTo(Double.parseDouble(text));
        }
        assertThat(Numbers.parseDouble(ascii("-0"))).isEqualTo(-0.0);
        assertThat(1 / Numbers.parseDouble(ascii("-0"))).isNegative();
        assertThat(Numbers.parseDouble(ascii("+1"))).isEqualTo(1.0);
        assertThat(Numbers.parseDouble(ascii("007"))).isEqualTo(7.0);
        assertThat(Numbers.parseDouble(ascii(" 1"))).isNull();
        assertThat(Numbers.parseDouble(ascii("999999999999999999999"))).isEqualTo(1e21);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
