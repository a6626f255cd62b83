package dev.redsim.simulator.protocol;

import dev.redsim.simulator.util.ByteText;
import dev.redsim.simulator.util.ChunkedBytes;

import java.nio.charset.StandardCharsets;
import java.util.Collection;

/**
 * Writes replies for one connection into its reply buffer, which the transport writes once per batch. A command says
 * what it answers (a map, a set, a double, a null) once; the framing for RESP2 or RESP3 follows from the connection's
 * protocol, with the same down-conversions Redis makes for RESP2 clients.
 */
public final class Reply {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] OK = "+OK\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL_RESP3 = "_\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL_BULK = "$-1\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL_ARRAY = "*-1\r\n".getBytes(StandardCharsets.US_ASCII);

    /** Pending replies. */
    private final ReplyBuffer out = new ReplyBuffer();
    /** Where {@link #writeDecimal} puts a number's digits (20 of them and a sign at most). */
    private final byte[] digits = new byte[20];
    private int protocol = 2;
    /** While false (CLIENT REPLY OFF / SKIP), replies are dropped. */
    private boolean enabled = true;

    public int protocol() {
        return protocol;
    }

    public void protocol(int version) {
        this.protocol = version;
    }

    public boolean resp3() {
        return protocol == 3;
    }

    public void enabled(boolean enabled) {
        this.enabled = enabled;
    }

    public boolean enabled() {
        return enabled;
    }

    /** True when bytes are waiting to be flushed. */
    public boolean hasPending() {
        return out.bytes() > 0;
    }

    /** How many bytes of replies wait to be written. */
    public int pendingBytes() {
        return out.bytes();
    }

    /**
     * The pending bytes, for the caller to write (or read) before it calls {@link #discardPending()}, which must come
     * before anything more is written.
     */
    public Outgoing pending() {
        return out.take();
    }

    /** Forgets the pending bytes (written, or dropped). */
    public void discardPending() {
        out.clear();
    }

    private ReplyBuffer buf() {
        return out;
    }

    // ---- simple types ----

    public void ok() {
        if (enabled) {
            buf().writeBytes(OK);
        }
    }

    public void simple(String text) {
        if (enabled) {
            ReplyBuffer b = buf();
            b.writeByte('+');
            writeText(text, b);
            b.writeBytes(CRLF);
        }
    }

    /** An error reply; the text starts with its code (ERR, WRONGTYPE, ...), as Redis writes it. */
    public void error(String text) {
        if (enabled) {
            ReplyBuffer b = buf();
            b.writeByte('-');
            // Redis replaces newlines so one error stays one protocol line.
            writeText(text.replace('\r', ' ').replace('\n', ' '), b);
            b.writeBytes(CRLF);
        }
    }

    /** Text as the bytes it came from ({@link ByteText}): a client's bytes echoed in a status or an error. */
    private static void writeText(String text, ReplyBuffer b) {
        if (ByteText.hasEscapes(text)) {
            b.writeBytes(ByteText.encode(text));
        } else {
            b.writeCharSequence(text, StandardCharsets.UTF_8);
        }
    }

    public void integer(long value) {
        if (enabled) {
            ReplyBuffer b = buf();
            b.writeByte(':');
            writeDecimal(b, value);
            b.writeBytes(CRLF);
        }
    }

    /** An integer reply from the number's decimal text (digits already made for the value a command stored). */
    public void integerText(byte[] digits) {
        if (enabled) {
            ReplyBuffer b = buf();
            b.writeByte(':');
            b.writeBytes(digits);
            b.writeBytes(CRLF);
        }
    }

    public void bulk(byte[] value) {
        if (!enabled) {
            return;
        }
        if (value == null) {
            nullBulk();
            return;
        }
        bulk(value, 0, value.length);
    }

    public void bulk(byte[] value, int offset, int length) {
        if (enabled) {
            ReplyBuffer b = buf();
            b.writeByte('$');
            writeDecimal(b, length);
            b.writeBytes(CRLF);
            b.writeBytes(value, offset, length);
            b.writeBytes(CRLF);
        }
    }

    /** A bulk string kept in chunks: written piece by piece, as a big array is (no array of its size is made). */
    public void bulk(ChunkedBytes value) {
        bulk(value, 0, value.length());
    }

    /** Bytes {@code [offset, offset + length)} of a string kept in chunks, as a bulk string. */
    public void bulk(ChunkedBytes value, int offset, int length) {
        if (enabled) {
            ReplyBuffer b = buf();
            b.writeByte('$');
            writeDecimal(b, length);
            b.writeBytes(CRLF);
            value.forEachPiece(offset, length, b::writeBytes);
            b.writeBytes(CRLF);
        }
    }

    public void bulk(String value) {
        bulk(value == null ? null : ByteText.encode(value));
    }

    public void bulk(long value) {
        bulk(Long.toString(value).getBytes(StandardCharsets.US_ASCII));
    }

    /** RESP3 verbatim string ("txt" format); a bulk string in RESP2. */
    public void verbatim(String text) {
        if (!enabled) {
            return;
        }
        if (!resp3()) {
            bulk(text);
            return;
        }
        byte[] body = ByteText.encode(text);
        ReplyBuffer b = buf();
        b.writeByte('=');
        writeDecimal(b, body.length + 4);
        b.writeBytes(CRLF);
        b.writeCharSequence("txt:", StandardCharsets.US_ASCII);
        b.writeBytes(body);
        b.writeBytes(CRLF);
    }

    /** The null of a missing value: RESP2 null bulk, RESP3 null. */
    public void nullBulk() {
        if (enabled) {
            buf().writeBytes(resp3() ? NULL_RESP3 : NULL_BULK);
        }
    }

    /** The null of a missing aggregate: RESP2 null array, RESP3 null. */
    public void nullArray() {
        if (enabled) {
            buf().writeBytes(resp3() ? NULL_RESP3 : NULL_ARRAY);
        }
    }

    /** A double as Redis 7.0 replies one (addReplyDouble): RESP3 double, RESP2 bulk string. */
    public void doubleValue(double value) {
        if (!enabled) {
            return;
        }
        String text = DoubleFormat.reply(value);
        if (resp3()) {
            ReplyBuffer b = buf();
            b.writeByte(',');
            b.writeCharSequence(text, StandardCharsets.US_ASCII);
            b.writeBytes(CRLF);
        } else {
            bulk(text.getBytes(StandardCharsets.US_ASCII));
        }
    }

    /**
     * A double already written out by the command (addReplyHumanLongDouble, whose format differs from
     * addReplyDouble's): RESP3 double, RESP2 bulk string.
     */
    public void doubleText(String text) {
        if (!enabled) {
            return;
        }
        if (resp3()) {
            ReplyBuffer b = buf();
            b.writeByte(',');
            b.writeCharSequence(text, StandardCharsets.US_ASCII);
            b.writeBytes(CRLF);
        } else {
            bulk(text.getBytes(StandardCharsets.US_ASCII));
        }
    }

    /** A boolean: RESP3 #t/#f, RESP2 integer 1/0. */
    public void bool(boolean value) {
        if (!enabled) {
            return;
        }
        if (resp3()) {
            buf().writeBytes(value ? "#t\r\n".getBytes(StandardCharsets.US_ASCII) : "#f\r\n".getBytes(StandardCharsets.US_ASCII));
        } else {
            integer(value ? 1 : 0);
        }
    }

    // ---- aggregates ----

    public void array(int length) {
        header('*', length);
    }

    /** A map of {@code pairs} entries: RESP3 map, RESP2 flat array of 2*pairs elements. */
    public void map(int pairs) {
        if (resp3()) {
            header('%', pairs);
        } else {
            header('*', pairs * 2L);
        }
    }

    /** A set: RESP3 set, RESP2 array. */
    public void set(int length) {
        header(resp3() ? '~' : '*', length);
    }

    /** A push frame (pub/sub messages): RESP3 push, RESP2 array. */
    public void push(int length) {
        header(resp3() ? '>' : '*', length);
    }

    /** Pairs that Redis sends as a flat array in RESP2 and as an array of 2-arrays in RESP3 (e.g. WITHSCORES). */
    public void pairArray(int pairs) {
        header('*', resp3() ? pairs : pairs * 2L);
    }

    /** Starts one pair of a {@link #pairArray}; a no-op in RESP2 where pairs are flat. */
    public void pairStart() {
        if (resp3()) {
            header('*', 2);
        }
    }

    public void bulkArray(Collection<byte[]> values) {
        array(values.size());
        for (byte[] v : values) {
            bulk(v);
        }
    }

    public void emptyArray() {
        array(0);
    }

    private void header(char type, long length) {
        if (enabled) {
            ReplyBuffer b = buf();
            b.writeByte(type);
            writeDecimal(b, length);
            b.writeBytes(CRLF);
        }
    }

    /** Raw bytes already framed (used to forward prepared frames). */
    public void raw(byte[] frame) {
        if (enabled) {
            buf().writeBytes(frame);
        }
    }

    private void writeDecimal(ReplyBuffer b, long value) {
        if (value >= 0 && value < 10) {
            b.writeByte('0' + (int) value);
            return;
        }
        if (value == Long.MIN_VALUE) {
            b.writeCharSequence(Long.toString(value), StandardCharsets.US_ASCII);
            return;
        }
        // digits from the end of a scratch array, then one write: no String per length or integer reply
        long rest = Math.abs(value);
        int at = digits.length;
        do {
            digits[--at] = (byte) ('0' + rest % 10);
            rest /= 10;
        } while (rest != 0);
        if (value < 0) {
            digits[--at] = '-';
        }
        b.writeBytes(digits, at, digits.length - at);
    }
}
