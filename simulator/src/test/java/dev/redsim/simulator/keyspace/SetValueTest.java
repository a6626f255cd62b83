package dev.redsim.simulator.keyspace;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class SetValueTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> members(SetValue set) {
        List<String> out = new ArrayList<>();
        set.forEach(m -> out.add(new String(m, StandardCharsets.UTF_8)));
        return out;
    }

    @Test
    void intsetKeepsNumericOrderAndRejectsNonCanonicalIntegers() {
        SetValue set = new SetValue();
        set.add(b("10"), EncodingLimits.DEFAULTS);
        set.add(b("-3"), EncodingLimits.DEFAULTS);
        set.add(b("2"), EncodingLimits.DEFAULTS);
        assertThat(set.add(b("2"), EncodingLimits.DEFAULTS)).isFalse();
        assertThat(members(set)).containsExactly("-3", "2", "10");
        assertThat(set.contains(b("02"))).isFalse();
        assertThat(set.encoding()).isEqualTo("intset");
        set.add(b("02"), EncodingLimits.DEFAULTS);
        assertThat(set.encoding()).isEqualTo("hashtable");
        assertThat(set.size()).isEqualTo(4);
    }

    @Test
    void hashtableRemovalKeepsIndexConsistent() {
        SetValue set = new SetValue();
        for (int i = 0; i < 100; i++) {
            set.add(b("m" + i), EncodingLimits.DEFAULTS);
        }
        for (int i = 0; i < 100; i += 3) {
            assertThat(set.remove(b("m" + i))).isTrue();
        }
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            if (i % 3 != 0) {
                expected.add("m" + i);
            }
        }
        assertThat(new HashSet<>(members(set))).isEqualTo(expected);
        for (String m : expected) {
            assertThat(set.contains(b(m))).isTrue();
        }
        while (!set.isEmpty()) {
            byte[] popped = set.removeAt(set.size() / 2);
            assertThat(set.contains(popped)).isFalse();
        }
    }

    @Test
    void copyIsIndependent() {
        SetValue set = new SetValue();
        set.add(b("a"), EncodingLimits.DEFAULTS);
        SetValue copy = set.copy();
        copy.add(b("b"), EncodingLimits.DEFAULTS);
        assertThat(set.size()).isEqualTo(1);
        assertThat(copy.encoding()).isEqualTo("hashtable");
    }
}
