package dev.redsim.simulator.commands;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** HINCRBYFLOAT arithmetic, against replies recorded from redis-server 7.0.15. */
class ExtendedPrecisionTest {
    private static String add(String current, String increment) {
        ExtendedPrecision.Value sum = ExtendedPrecision.add(ExtendedPrecision.parse(current.getBytes()),
                ExtendedPrecision.parse(increment.getBytes()));
        return new String(ExtendedPrecision.format(sum.exact()));
    }

    @Test
    void addsInLongDoublePrecision() {
        assertThat(add("10.5", "0.1")).isEqualTo("10.6");
        assertThat(add("0", "-0.00000000000000000001")).isEqualTo("0");
        assertThat(add("5000", "0x10")).isEqualTo("5016");
        assertThat(add("10.6", "1e300")).isEqualTo("1000000000000000000008997324079559193870523944273290747938260"
                + "082321265646596180935755849152083750497190350372508614274835903592556184672983913096260520748646"
                + "287327135641843653294084255107606016789726652932370030551382947620994540294772781889620606179267"
                + "611627097410650567187386105690089424915104006144");
        assertThat(add("0", "1e70"))
                .isEqualTo("10000000000000000000222479489586148259025995410601157579323600873193472");
    }

    @Test
    void parsesAsString2ld() {
        assertThat(ExtendedPrecision.parse("inf".getBytes()).infinite()).isTrue();
        assertThat(ExtendedPrecision.parse("-Infinity".getBytes()).negative()).isTrue();
        assertThat(ExtendedPrecision.parse("nan".getBytes())).isNull();
        assertThat(ExtendedPrecision.parse(" 1".getBytes())).isNull();
        assertThat(ExtendedPrecision.parse("1 ".getBytes())).isNull();
        assertThat(ExtendedPrecision.parse("".getBytes())).isNull();
        assertThat(ExtendedPrecision.parse("1e5000".getBytes())).isNull();
        assertThat(ExtendedPrecision.parse("1e-5000".getBytes())).isNull();
        assertThat(ExtendedPrecision.parse("0e-5000".getBytes())).isNotNull();
        assertThat(ExtendedPrecision.parse("1.".getBytes())).isNotNull();
        assertThat(ExtendedPrecision.parse(".5".getBytes())).isNotNull();
    }
}
