package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wire protocol itself, compared on real Redis and the simulator: raw input (well-formed, inline,
 * malformed, split in pieces) goes to both, and the bytes that come back and whether the server then closed
 * the connection must be the same.
 */
class ProtocolConformanceTest {
    /** Sent after each input: its reply marks the end of the answers when the connection stays open. */
    private static final byte[] SENTINEL = "*2\r\n$4\r\nECHO\r\n$7\r\n__end__\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SENTINEL_REPLY = "$7\r\n__end__\r\n".getBytes(StandardCharsets.US_ASCII);

    static Stream<Arguments> inputs() {
        return Stream.of(
                Arguments.of("inline PING", "PING\r\n"),
                Arguments.of("inline with bare LF", "PING\n"),
                Arguments.of("inline with spaces around", "   PING   \r\n"),
                Arguments.of("empty inline lines are ignored", "\r\n\r\n\nPING\r\n"),
                Arguments.of("inline double quotes and escapes", "ECHO \"a\\x41b\\n\\t\\\\\"\r\n"),
                Arguments.of("inline single quotes", "ECHO 'it\\'s'\r\n"),
                Arguments.of("inline unbalanced double quote", "ECHO \"abc\r\n"),
                Arguments.of("inline unbalanced single quote", "ECHO 'abc\r\n"),
                Arguments.of("inline closing quote followed by text", "ECHO \"a\"b\r\n"),
                // sdssplitargs skips any isspace() byte between arguments, but only ' ', \t, \r and \n end one
                Arguments.of("inline vertical tab and form feed inside a token", "SET k1\u000bv1 x\r\nGET k1\u000bv1\r\n"
                        + "ECHO a\fb\r\n"),
                Arguments.of("inline vertical tab and form feed between tokens", "ECHO\u000b\u000ba\f\r\n"),
                Arguments.of("inline vertical tab after a closing quote", "ECHO \"a\"\u000bb\r\n"),
                Arguments.of("multibulk PING", "*1\r\n$4\r\nPING\r\n"),
                Arguments.of("multibulk lower case", "*2\r\n$4\r\necho\r\n$3\r\nabc\r\n"),
                Arguments.of("empty multibulk ignored", "*0\r\n*1\r\n$4\r\nPING\r\n"),
                Arguments.of("negative multibulk ignored", "*-1\r\n*1\r\n$4\r\nPING\r\n"),
                Arguments.of("multibulk count not a number", "*abc\r\n"),
                Arguments.of("multibulk count with plus", "*+1\r\n$4\r\nPING\r\n"),
                Arguments.of("multibulk count too big", "*3000000000\r\n"),
                Arguments.of("multibulk count leading zero", "*01\r\n$4\r\nPING\r\n"),
                Arguments.of("expected dollar", "*1\r\n+PING\r\n"),
                Arguments.of("expected dollar, got colon", "*1\r\n:1\r\n"),
                Arguments.of("negative bulk length", "*1\r\n$-1\r\n"),
                Arguments.of("bulk length not a number", "*1\r\n$x\r\n"),
                Arguments.of("bulk length over proto-max-bulk-len", "*1\r\n$536870913\r\n"),
                Arguments.of("bulk followed by other bytes than CRLF", "*1\r\n$4\r\nPINGxx"),
                Arguments.of("pipeline before an error runs", "PING\r\n*1\r\n$4\r\nPING\r\n*1\r\n$x\r\n"),
                Arguments.of("error discards what follows", "*1\r\n$x\r\nPING\r\n"),
                Arguments.of("binary key and value", "*3\r\n$3\r\nSET\r\n$3\r\na\0b\r\n$4\r\n\r\n\0\1\r\n"
                        + "*2\r\n$3\r\nGET\r\n$3\r\na\0b\r\n"),
                Arguments.of("unknown command inline", "NOSUCH a b\r\n"),
                Arguments.of("unknown command with CRLF in args", "*3\r\n$6\r\nNOSUCH\r\n$3\r\na\r\nb\r\n$1\r\nc\r\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void sameBytesBack(String name, String input) throws IOException {
        byte[] bytes = input.getBytes(StandardCharsets.ISO_8859_1);
        Outcome want = exchange(SharedTargets.reference(), bytes, 0);
        Outcome got = exchange(SharedTargets.simulator(), bytes, 0);
        assertThat(got).as(name).isEqualTo(want);
    }

    @ParameterizedTest(name = "{0}, one byte at a time")
    @MethodSource("inputs")
    void sameBytesBackWhenSplit(String name, String input) throws IOException {
        byte[] bytes = input.getBytes(StandardCharsets.ISO_8859_1);
        Outcome want = exchange(SharedTargets.reference(), bytes, 1);
        Outcome got = exchange(SharedTargets.simulator(), bytes, 1);
        assertThat(got).as(name).isEqualTo(want);
    }

    @Test
    void tooBigInlineRequest() throws IOException {
        byte[] big = new byte[200 * 1024];
        Arrays.fill(big, (byte) 'a');
        assertThat(exchange(SharedTargets.simulator(), big, 0)).isEqualTo(exchange(SharedTargets.reference(), big, 0));
    }

    @Test
    void nulByteHidesTheEndOfAnInlineLine() throws IOException {
        // Redis finds the end of a line with strchr, which stops at NUL: the line never ends, and grows too big.
        byte[] filler = new byte[200 * 1024];
        Arrays.fill(filler, (byte) 'a');
        byte[] input = concat("ECHO a\0b\r\n".getBytes(StandardCharsets.ISO_8859_1), filler);
        assertThat(exchange(SharedTargets.simulator(), input, 0)).isEqualTo(exchange(SharedTargets.reference(), input, 0));
    }

    @Test
    void tooBigMultibulkAndBulkCountStrings() throws IOException {
        for (String prefix : new String[] {"*", "*1\r\n$"}) {
            byte[] digits = new byte[200 * 1024];
            Arrays.fill(digits, (byte) '1');
            byte[] input = concat(prefix.getBytes(StandardCharsets.US_ASCII), digits);
            assertThat(exchange(SharedTargets.simulator(), input, 0)).as(prefix)
                    .isEqualTo(exchange(SharedTargets.reference(), input, 0));
        }
    }

    @Test
    void garbageOnOneConnectionDisturbsNoOtherClientNorData() throws IOException {
        for (RedisTarget target : new RedisTarget[] {SharedTargets.reference(), SharedTargets.simulator()}) {
            try (RespClient good = new RespClient(target.host(), target.port())) {
                good.call("SET", "proto:k", "kept");
                Outcome bad = exchange(target, "*1\r\n$x\r\n".getBytes(StandardCharsets.US_ASCII), 0);
                assertThat(bad.closed()).as(target.name()).isTrue();
                assertThat(good.call("GET", "proto:k").text()).as(target.name()).isEqualTo("kept");
                good.call("DEL", "proto:k");
            }
        }
    }

    @Test
    void closingMidCommandLosesNothingElse() throws IOException {
        for (RedisTarget target : new RedisTarget[] {SharedTargets.reference(), SharedTargets.simulator()}) {
            try (RespClient good = new RespClient(target.host(), target.port())) {
                good.call("SET", "proto:k2", "before");
                try (Socket socket = new Socket(target.host(), target.port())) {
                    // a SET whose value never fully arrives: nothing may be written
                    socket.getOutputStream().write("*3\r\n$3\r\nSET\r\n$8\r\nproto:k2\r\n$100\r\nabc".getBytes(StandardCharsets.US_ASCII));
                    socket.getOutputStream().flush();
                }
                assertThat(good.call("PING").text()).isEqualTo("PONG");
                assertThat(good.call("GET", "proto:k2").text()).as(target.name()).isEqualTo("before");
                good.call("DEL", "proto:k2");
            }
        }
    }

    /** What came back for an input, and whether the server closed the connection afterwards. */
    record Outcome(String reply, boolean closed) {
    }

    /** Sends input (whole, or in chunks of chunkSize) and then the sentinel, and reads until its reply or EOF. */
    static Outcome exchange(RedisTarget target, byte[] input, int chunkSize) throws IOException {
        try (Socket socket = new Socket(target.host(), target.port())) {
            socket.setSoTimeout(5000);
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            try {
                if (chunkSize <= 0) {
                    out.write(input);
                } else {
                    for (int i = 0; i < input.length; i += chunkSize) {
                        out.write(input, i, Math.min(chunkSize, input.length - i));
                        out.flush();
                    }
                }
                out.write(SENTINEL);
                out.flush();
            } catch (IOException closedAlready) {
                // the server refused the input and closed the connection while we were still writing
            }
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            boolean closed = false;
            try {
                while (true) {
                    int n = in.read(buf);
                    if (n < 0) {
                        closed = true;
                        break;
                    }
                    received.write(buf, 0, n);
                    if (endsWith(received.toByteArray(), SENTINEL_REPLY)) {
                        break;
                    }
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError(target.name() + " neither answered nor closed; got: " + received, e);
            } catch (IOException reset) {
                closed = true;
            }
            return new Outcome(RespValue.escape(received.toByteArray()), closed);
        }
    }

    private static boolean endsWith(byte[] data, byte[] suffix) {
        if (data.length < suffix.length) {
            return false;
        }
        return Arrays.equals(data, data.length - suffix.length, data.length, suffix, 0, suffix.length);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

}
