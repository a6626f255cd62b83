package dev.redsim.conformance.contracts.conveyor;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The crash proxy cuts exactly after the k-th command: command boundaries must be found exactly. */
class RespCommandCounterTest {

    private static List<Integer> boundaries(String stream) {
        RespCommandCounter counter = new RespCommandCounter();
        byte[] bytes = stream.getBytes(StandardCharsets.ISO_8859_1);
        List<Integer> ends = new ArrayList<>();
        for (int i = 0; i < bytes.length; i++) {
            if (counter.feed(bytes[i])) {
                ends.add(i + 1);
            }
        }
        return ends;
    }

    @Test
    void multibulkCommandsEndAfterTheirLastBulk() {
        String multi = "*1\r\n$5\r\nMULTI\r\n";
        String set = "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$4\r\n\r\n*1\r\n";
        assertThat(boundaries(multi + set)).containsExactly(multi.length(), multi.length() + set.length());
    }

    @Test
    void binaryBulksMayContainLineBreaksAndStars() {
        String cmd = "*2\r\n$4\r\nECHO\r\n$6\r\n*1\r\n$\n\r\n";
        assertThat(boundaries(cmd + cmd)).containsExactly(cmd.length(), 2 * cmd.length());
    }

    @Test
    void inlineCommandsEndAtTheirNewline() {
        assertThat(boundaries("PING\r\n*1\r\n$4\r\nPING\r\n")).containsExactly(6, 20);
    }
}
