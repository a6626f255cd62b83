package dev.redsim.conformance.recording;

import dev.redsim.conformance.resp.RespValue;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Replies written as text read back byte for byte, whatever bytes they hold; a damaged text is refused. */
class RespTextTest {
    private static final char[] SCALARS = {'+', '-', ':', ',', '#', '(', '$', '='};
    private static final char[] AGGREGATES = {'*', '~', '>', '%'};

    @Test
    void readableRepliesLookLikeTheWire() {
        RespValue reply = RespValue.aggregate('*', List.of(bulk("hello"), RespValue.scalar(':', bytes("1")),
                RespValue.nullOf('$'), RespValue.aggregate('%', List.of(bulk("f"), RespValue.nullOf('_')))));
        assertThat(text(reply)).isEqualTo("""
                  *4
                    $5
                    hello
                    :1
                    $-1
                    %1
                      $1
                      f
                      _
                """);
    }

    @Test
    void awkwardBytesAreEscapedAndReadBack() {
        for (String data : List.of("", " ", "  two leading", "trailing ", "a\r\nb", "back\\slash", "\\x41",
                "tab\there", "caf\u00e9", "\u0000\u0001\u007f", "$3", "*2", "  $1")) {
            RespValue bulk = bulk(data);
            assertThat(roundTrip(bulk)).as(data).isEqualTo(bulk);
            RespValue simple = RespValue.scalar('+', bytes(data.replace("\r", "").replace("\n", "")));
            assertThat(roundTrip(simple)).as(data).isEqualTo(simple);
        }
        assertThat(text(bulk("trailing "))).endsWith("trailing\\x20\n"); // editors strip trailing spaces
        assertThat(text(bulk(""))).isEqualTo("  $0\n\n");                 // no indentation on an empty line
    }

    @Test
    void randomRepliesReadBackExactly() {
        Random random = new Random(20261123L);
        for (int i = 0; i < 2000; i++) {
            RespValue reply = random(random, 0);
            assertThat(roundTrip(reply)).as("case %d: %s", i, reply).isEqualTo(reply);
        }
    }

    @Test
    void aBulkWhoseDataNoLongerFitsItsLengthIsRefused() {
        String text = text(bulk("abc")).replace("abc", "abcd");
        assertThatThrownBy(() -> RespText.read(new RespText.Lines("edited", text), "  "))
                .hasMessageContaining("edited:2: the data has 4 bytes, its header says 3");
    }

    @Test
    void rawNonAsciiAndUnknownEscapesAreRefused() {
        assertThatThrownBy(() -> RespText.read(new RespText.Lines("t", "  +caf\u00e9\n"), "  "))
                .hasMessageContaining("raw byte");
        assertThatThrownBy(() -> RespText.read(new RespText.Lines("t", "  +a\\qb\n"), "  "))
                .hasMessageContaining("unknown escape");
        assertThatThrownBy(() -> RespText.read(new RespText.Lines("t", "  *1\n  :1\n"), "  "))
                .hasMessageContaining("indented wrongly");
    }

    private static RespValue random(Random random, int depth) {
        if (depth < 3 && random.nextInt(4) == 0) {
            char type = AGGREGATES[random.nextInt(AGGREGATES.length)];
            if (random.nextInt(10) == 0) {
                return RespValue.nullOf(type);
            }
            int n = random.nextInt(4) * (type == '%' ? 2 : 1);
            List<RespValue> children = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                children.add(random(random, depth + 1));
            }
            return RespValue.aggregate(type, children);
        }
        if (random.nextInt(12) == 0) {
            return RespValue.nullOf(random.nextBoolean() ? '_' : '$');
        }
        char type = SCALARS[random.nextInt(SCALARS.length)];
        byte[] data = new byte[random.nextInt(12)];
        random.nextBytes(data);
        if (type != '$' && type != '=') {
            for (int i = 0; i < data.length; i++) {
                data[i] = data[i] == '\r' || data[i] == '\n' ? (byte) ' ' : data[i]; // a line cannot hold CR or LF
            }
        }
        return RespValue.scalar(type, data);
    }

    private static RespValue roundTrip(RespValue reply) {
        RespText.Lines lines = new RespText.Lines("test", text(reply));
        RespValue read = RespText.read(lines, "  ");
        assertThat(lines.peek()).as("nothing left but the final newline").isEmpty();
        return read;
    }

    private static String text(RespValue reply) {
        StringBuilder out = new StringBuilder();
        RespText.write(reply, "  ", out);
        return out.toString();
    }

    private static RespValue bulk(String data) {
        return RespValue.scalar('$', bytes(data));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
