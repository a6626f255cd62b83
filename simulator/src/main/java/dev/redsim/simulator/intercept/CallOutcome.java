package dev.redsim.simulator.intercept;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What a {@link CommandInterceptor} decides for one call. Anything but {@link #proceed()} and
 * {@link #runThenDisconnect()} replaces the command: it does not run, is not queued inside MULTI and is not counted
 * in INFO's statistics. Replies follow the client's protocol (a null is {@code $-1} in RESP2 and {@code _} in
 * RESP3) and CLIENT REPLY OFF/SKIP, as the command's own reply would.
 */
public final class CallOutcome {
    /** The kinds of outcome; the engine reads them, users build outcomes with the factory methods. */
    public enum Kind { PROCEED, STATUS, ERROR, BULK, INTEGER, NULL, RAW, DISCONNECT, RUN_THEN_DISCONNECT }

    private static final CallOutcome PROCEED = new CallOutcome(Kind.PROCEED, null, null, 0);
    private static final CallOutcome OK = new CallOutcome(Kind.STATUS, "OK", null, 0);
    private static final CallOutcome NULL = new CallOutcome(Kind.NULL, null, null, 0);
    private static final CallOutcome DISCONNECT = new CallOutcome(Kind.DISCONNECT, null, null, 0);
    private static final CallOutcome RUN_THEN_DISCONNECT = new CallOutcome(Kind.RUN_THEN_DISCONNECT, null, null, 0);

    private final Kind kind;
    private final String text;
    private final byte[] bytes;
    private final long number;

    private CallOutcome(Kind kind, String text, byte[] bytes, long number) {
        this.kind = kind;
        this.text = text;
        this.bytes = bytes;
        this.number = number;
    }

    /** Run the command as usual. */
    public static CallOutcome proceed() {
        return PROCEED;
    }

    /** Answer +OK without running the command (a write acknowledged but lost). */
    public static CallOutcome ok() {
        return OK;
    }

    /** Answer a status reply (+text) without running the command. */
    public static CallOutcome status(String text) {
        return new CallOutcome(Kind.STATUS, oneLine(text), null, 0);
    }

    /**
     * Answer an error without running the command. The message starts with its code, as Redis's do:
     * {@code "ERR injected failure"}, {@code "READONLY You can't write against a read only replica."},
     * {@code "LOADING Redis is loading the dataset in memory"}.
     */
    public static CallOutcome error(String message) {
        return new CallOutcome(Kind.ERROR, oneLine(message), null, 0);
    }

    /** Answer a bulk string without running the command. */
    public static CallOutcome bulk(String value) {
        return bulk(value.getBytes(StandardCharsets.UTF_8));
    }

    /** Answer a bulk string without running the command. */
    public static CallOutcome bulk(byte[] value) {
        return new CallOutcome(Kind.BULK, null, value.clone(), 0);
    }

    /** Answer an integer without running the command. */
    public static CallOutcome integer(long value) {
        return new CallOutcome(Kind.INTEGER, null, null, value);
    }

    /** Answer a null (a missing key's GET) without running the command. */
    public static CallOutcome nullReply() {
        return NULL;
    }

    /**
     * Answer with these bytes, written as they are, without running the command: any reply, in the protocol the
     * client speaks ({@link InterceptedCall#protocol()}), e.g. {@code "*2\r\n:1\r\n:2\r\n"}.
     */
    public static CallOutcome raw(byte[] resp) {
        return new CallOutcome(Kind.RAW, null, resp.clone(), 0);
    }

    /**
     * Close the connection without running the command or answering it, as a network failure would; the replies
     * to the client's earlier commands are written first.
     */
    public static CallOutcome disconnect() {
        return DISCONNECT;
    }

    /**
     * Run the command, then close the connection before its reply is written: the write happened, and the client
     * never hears of it (a reply lost to a crash or a cut connection).
     */
    public static CallOutcome runThenDisconnect() {
        return RUN_THEN_DISCONNECT;
    }

    public Kind kind() {
        return kind;
    }

    /** The status or error text. */
    public String text() {
        return text;
    }

    /** The bulk or raw bytes (a copy). */
    public byte[] bytes() {
        return bytes == null ? null : bytes.clone();
    }

    /** The integer. */
    public long number() {
        return number;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case STATUS, ERROR -> kind + " " + text;
            case BULK, RAW -> kind + " " + Arrays.toString(bytes);
            case INTEGER -> kind + " " + number;
            default -> kind.toString();
        };
    }

    /** A status or error is one line of RESP: a CR or LF inside would end it early and garble what follows. */
    private static String oneLine(String text) {
        if (text.indexOf('\r') >= 0 || text.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("a status or error reply is one line: " + text);
        }
        return text;
    }
}
