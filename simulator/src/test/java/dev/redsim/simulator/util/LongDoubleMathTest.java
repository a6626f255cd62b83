package dev.redsim.simulator.util;

import dev.redsim.simulator.error.RedisError;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Expected texts were produced by INCRBYFLOAT on redis-server 7.0.15 (x86_64, 80-bit long double). */
class LongDoubleMathTest {
    /** current (null: missing key), increment, what Redis stored and replied (or its error text). */
    private static final String[][] CASES = {
                {"10.5", "0.1", "10.6"},
                {"0.1", "0.2", "0.3"},
                {"1e17", "1", "100000000000000001"},
                {"3.0e3", "0", "3000"},
                {"-5", "0", "-5"},
                {"5.0e-1", "0", "0.5"},
                {null, "10.5", "10.5"},
                {null, "3.0e3", "3000"},
                {null, "5.0e-1", "0.5"},
                {"10", "-10", "0"},
                {"-10", "3.33", "-6.67"},
                {"1.1", "2.2", "3.3"},
                {"0.3", "-0.1", "0.2"},
                {"1.5e4932", "0", "ERR value is not a valid float"},
                {"-1.18973149535723176502e+4932", "-1e4931", "ERR increment would produce NaN or Infinity"},
                {"1e-4940", "0", "0"},
                {"1e-4952", "0", "ERR value is not a valid float"},
                {"3.6e-4951", "0", "0"},
                {"1.9e-4951", "0", "0"},
                {"1.8e-4951", "0", "ERR value is not a valid float"},
                {"0x1p3", "0", "8"},
                {"0x1.8p1", "0", "3"},
                {"0X.8", "0", "0.5"},
                {"0x10", "0", "16"},
                {"0x1p", "0", "ERR value is not a valid float"},
                {"0x", "0", "ERR value is not a valid float"},
                {"1e", "0", "ERR value is not a valid float"},
                {"1.", "0", "1"},
                {".5", "0", "0.5"},
                {".", "0", "ERR value is not a valid float"},
                {"+5", "0", "5"},
                {"+-5", "0", "ERR value is not a valid float"},
                {"1e+5", "0", "100000"},
                {"1E-2", "0", "0.01"},
                {"inf", "0", "ERR increment would produce NaN or Infinity"},
                {"-inf", "0", "ERR increment would produce NaN or Infinity"},
                {"Infinity", "0", "ERR increment would produce NaN or Infinity"},
                {"infinit", "0", "ERR value is not a valid float"},
                {"nan", "0", "ERR value is not a valid float"},
                {"-nan", "0", "ERR value is not a valid float"},
                {"1e5000", "0", "ERR value is not a valid float"},
                {"-1e5000", "0", "ERR value is not a valid float"},
                {"1e-5000", "0", "ERR value is not a valid float"},
                {"0e5000", "0", "0"},
                {"0.000000000000000001", "0", "0"},
                {"-0.000000000000000001", "0", "0"},
                {"-0", "0", "0"},
                {"-0", "-0", "0"},
                {"123456789012345678901234567890", "0", "123456789012345678899921813504"},
                {"12345678901234567890.123", "0.877", "12345678901234567891"},
                {"9223372036854775807", "1", "9223372036854775808"},
                {"0.1", "0.1", "0.2"},
                {"2.5", "0.000000000000000005", "2.5"},
                {"1", "0.000000000000000015", "1.00000000000000001"},
                {"1", "0.000000000000000025", "1.00000000000000003"},
                {"100", "0.00000000000000035", "100.00000000000000035"},
                {"7.0e-18", "0", "0.00000000000000001"},
                {"0.0000038146972656250", "0", "0.00000381469726562"},
                {"3.814697265625e-6", "0", "0.00000381469726562"},
                {"1.0000000000000000005", "0", "1"},
                {"1.00000000000000000005", "0", "1"},
                {"1.0000000000000000001", "1e-19", "1"},
                {"18446744073709551615", "0", "18446744073709551615"},
                {"18446744073709551616", "1", "18446744073709551616"},
                {"18446744073709551617", "0", "18446744073709551616"},
                {"36893488147419103231", "0", "36893488147419103232"},
                {"abc", "0", "ERR value is not a valid float"},
                {"1", "abc", "ERR value is not a valid float"},
                {"1x", "0", "ERR value is not a valid float"},
    };

    @Test
    void matchesRedisIncrByFloat() {
        for (String[] c : CASES) {
            byte[] current = c[0] == null ? null : bytes(c[0]);
            if (c[2].startsWith("ERR ")) {
                assertThatThrownBy(() -> LongDoubleMath.add(current, bytes(c[1])))
                        .as(c[0] + " + " + c[1]).isInstanceOf(RedisError.class).hasMessage(c[2]);
            } else {
                assertThat(new String(LongDoubleMath.add(current, bytes(c[1])), StandardCharsets.US_ASCII))
                        .as(c[0] + " + " + c[1]).isEqualTo(c[2]);
            }
        }
    }

    @Test
    void refusesLeadingAndTrailingSpaceAndOverlongText() {
        assertThat(LongDoubleMath.parse(bytes(" 1"))).isNull();
        assertThat(LongDoubleMath.parse(bytes("1 "))).isNull();
        assertThat(LongDoubleMath.parse(bytes(""))).isNull();
        assertThat(LongDoubleMath.parse(bytes("1".repeat(LongDoubleMath.MAX_CHARS)))).isNull();
        // string2ld copies into a 5120-byte buffer: 5119 characters still parse, 5120 do not.
        assertThat(LongDoubleMath.add(null, bytes("1." + "0".repeat(5117)))).isEqualTo(bytes("1"));
        assertThat(LongDoubleMath.parse(bytes("1." + "0".repeat(5118)))).isNull();
    }

    @Test
    void refusesTextWithANulByte() {
        assertThat(LongDoubleMath.parse(new byte[] {'1', 0, 'x'})).isNull();
        assertThat(LongDoubleMath.parse(new byte[] {'1', 0})).isNull();
    }

    @Test
    void bigValuesPrintAllTheirDigits() {
        assertThat(new String(LongDoubleMath.add(bytes("1e308"), bytes("1e308")), StandardCharsets.US_ASCII))
                .startsWith("199999999999999999993371759311691291321120199694831134415594095989843469737676")
                .hasSize(309);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
