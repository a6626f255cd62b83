package dev.redsim.simulator.protocol;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The decoder keeps the value of SET and its kind in chunks once it is at least a chunk long (decision 0048), and
 * every other argument in one array as before, however the input is split into reads.
 */
class RespParserChunkingTest {
    private static final int CHUNK = 1000;

    @Test
    void aSetValueOfAtLeastAChunkArrivesInChunksWhateverTheReads() {
        byte[] value = pattern(40_000 + 123);
        for (int read : new int[] {1, 7, 999, 1000, 1001, 16 * 1024, 50_000}) {
            List<Object> out = decode(read, command("SET", "key", value, "EX", "10"), command("PING"));
            assertThat(out).hasSize(2);
            ChunkedCommand set = (ChunkedCommand) out.get(0);
            assertThat(set.value(2)).isNotNull();
            assertThat(set.value(1)).isNull();
            assertThat(set.args()[2]).isNull();
            assertThat(text(set.args()[0])).isEqualTo("SET");
            assertThat(text(set.args()[1])).isEqualTo("key");
            assertThat(text(set.args()[4])).isEqualTo("10");
            assertThat(set.value(2).chunkCount()).isEqualTo(41);
            for (int i = 0; i < 40; i++) {
                assertThat(set.value(2).chunk(i)).hasSize(CHUNK); // no chunk bigger than the size asked for
            }
            assertThat(set.value(2).toArray()).isEqualTo(value);
            assertThat(set.gathered()[2]).isEqualTo(value);
            assertThat(set.args()[2]).isEqualTo(value);
            assertThat(set.value(2)).isNull(); // gathered: the array has it now
            assertThat(text(((byte[][]) out.get(1))[0])).isEqualTo("PING");
        }
    }

    @Test
    void theValueIndexFollowsTheCommandWhateverItsCase() {
        byte[] value = pattern(CHUNK * 40);
        assertThat(((ChunkedCommand) decode(64, command("setex", "k", "5", value)).get(0)).value(3)).isNotNull();
        assertThat(((ChunkedCommand) decode(64, command("PSetEx", "k", "5", value)).get(0)).value(3)).isNotNull();
        assertThat(((ChunkedCommand) decode(64, command("SETNX", "k", value)).get(0)).value(2)).isNotNull();
        assertThat(((ChunkedCommand) decode(64, command("getset", "k", value)).get(0)).value(2)).isNotNull();
        ChunkedCommand exact = (ChunkedCommand) decode(64, command("set", "k", value)).get(0);
        assertThat(exact.value(2).chunkCount()).isEqualTo(40); // a whole number of chunks: the last one is full
        assertThat(exact.value(2).toArray()).isEqualTo(value);
        // MSET and MSETNX: every value of a chunk or more, not the keys, not the small values
        byte[] other = pattern(CHUNK * 35 + 1); // at least BIG_ARG (32 KB): smaller arguments are read through the window
        for (String name : new String[] {"MSET", "msetnx"}) {
            ChunkedCommand mset = (ChunkedCommand) decode(700, command(name, "a", value, "b", "small", "c", other))
                    .get(0);
            assertThat(mset.args()[2]).isNull();
            assertThat(text(mset.args()[4])).isEqualTo("small");
            assertThat(mset.args()[6]).isNull();
            assertThat(mset.value(2).toArray()).isEqualTo(value);
            assertThat(mset.value(6).toArray()).isEqualTo(other);
            assertThat(mset.value(4)).isNull();
            assertThat(mset.gathered()[6]).isEqualTo(other);
        }
    }

    @Test
    void otherBigArgumentsStayOneArray() {
        byte[] big = pattern(CHUNK * 40);
        // a key, another command's value, SETEX's seconds place: none is a stored string value
        assertThat(decode(4096, command("SET", big, "v")).get(0)).isInstanceOf(byte[][].class);
        assertThat(decode(4096, command("APPEND", "k", big)).get(0)).isInstanceOf(byte[][].class);
        assertThat(decode(4096, command("SETEX", "k", big, "v")).get(0)).isInstanceOf(byte[][].class);
        assertThat(decode(4096, command("MSET", big, "v")).get(0)).isInstanceOf(byte[][].class); // MSET's key
        assertThat(decode(4096, command("RPUSH", "k", big)).get(0)).isInstanceOf(byte[][].class);
        // BIG_ARG (32 KB) and more but under the chunk size asked for: one array
        byte[][] args = (byte[][]) decode(new RespParser(limits(64 * 1024)), 1 << 20, command("SET", "k", big)).get(0);
        assertThat(args[2]).isEqualTo(big);
    }

    @Test
    void theQueryBufferLimitCountsWhatArrivedOfAValueInChunks() {
        RespParser parser = new RespParser(new DecoderLimits() {
            public long maxBulkLength() { return 512L * 1024 * 1024; }
            public long maxQueryBuffer() { return 30_000; }
            public boolean authenticated() { return true; }
            public int chunkSizeFor(long length) { return length >= CHUNK ? CHUNK : 0; }
        });
        byte[] whole = command("SET", "k", pattern(40_000));
        ArrayInput input = new ArrayInput();
        List<Object> out = new ArrayList<>();
        input.append(whole, 0, 20_000);
        parser.decode(input, out);
        assertThat(parser.closing()).isFalse();
        input.append(whole, 20_000, 12_000);
        parser.decode(input, out);
        assertThat(parser.closing()).isTrue(); // Redis closes a client past client-query-buffer-limit, no reply
        assertThat(out).isEmpty();
    }

    @Test
    void aProtocolErrorAfterAValueInChunksStillEndsTheConnection() {
        byte[] value = pattern(CHUNK * 3);
        byte[] set = command("SET", "k", value);
        // the announced count says four arguments; the fourth header is no bulk
        byte[] broken = new String(set, StandardCharsets.ISO_8859_1).replaceFirst("\\*3", "*4")
                .concat("+oops\r\n").getBytes(StandardCharsets.ISO_8859_1);
        List<Object> out = decode(512, broken);
        assertThat(out).hasSize(1);
        assertThat(out.get(0)).isInstanceOf(ProtocolError.class);
    }

    private static List<Object> decode(int readSize, byte[]... commands) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] c : commands) {
            all.writeBytes(c);
        }
        byte[] input = all.toByteArray();
        return decode(new RespParser(limits(CHUNK)), readSize, input);
    }

    /** The input in reads of {@code readSize} bytes, each decoded as the transport's driver decodes a read. */
    private static List<Object> decode(RespParser parser, int readSize, byte[] input) {
        ArrayInput unread = new ArrayInput();
        List<Object> out = new ArrayList<>();
        for (int at = 0; at < input.length; at += readSize) {
            unread.append(input, at, Math.min(readSize, input.length - at));
            int before;
            do {
                before = unread.readableBytes();
                parser.decode(unread, out);
            } while (unread.readableBytes() > 0 && unread.readableBytes() != before);
        }
        return out;
    }

    private static DecoderLimits limits(int chunk) {
        return new DecoderLimits() {
            public long maxBulkLength() { return 512L * 1024 * 1024; }
            public long maxQueryBuffer() { return 1L << 30; }
            public boolean authenticated() { return true; }
            public int chunkSizeFor(long length) { return length >= chunk ? chunk : 0; }
        };
    }

    private static byte[] command(Object... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (Object arg : args) {
            byte[] bytes = arg instanceof byte[] b ? b : ((String) arg).getBytes(StandardCharsets.UTF_8);
            out.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(bytes);
            out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        return out.toByteArray();
    }

    private static byte[] pattern(int length) {
        byte[] bytes = new byte[length];
        new Random(length).nextBytes(bytes);
        return bytes;
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
