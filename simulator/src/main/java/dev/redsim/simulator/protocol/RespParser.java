package dev.redsim.simulator.protocol;

import dev.redsim.simulator.util.ByteText;
import dev.redsim.simulator.util.ChunkedBytes;
import java.util.Arrays;
import java.util.List;

/**
 * Turns the bytes a client sends into commands (byte[][], or a {@link ChunkedCommand} for a big string value that
 * is kept in chunks), following networking.c of Redis 7.0:
 * multibulk requests, inline requests, and the same protocol errors at the same limits. After an error the
 * rest of the input is discarded, as Redis does once it has decided to close the connection.
 *
 * <p>The decoder keeps its place inside a multibulk request, so a large value that arrives in many reads is
 * not parsed again from the start each time. It reads whatever {@link Input} the transport keeps the connection's
 * unread bytes in, and tells it how much to read next ({@link #nextReadSize}) and when to close ({@link #closing}).
 */
public final class RespParser {
    /** PROTO_INLINE_MAX_SIZE: the longest inline request or length line Redis waits for. */
    static final int INLINE_MAX_SIZE = 64 * 1024;
    private static final int UNAUTHENTICATED_MAX_ARGS = 10;
    private static final int UNAUTHENTICATED_MAX_BULK = 16384;
    /**
     * PROTO_IOBUF_LEN: Redis reads 16 KB at a time; protocol limits are checked per read, so equal read sizes make the
     * same input meet the same limits.
     */
    public static final int READ_BYTES = 16 * 1024;
    /**
     * While a big argument arrives, Redis reads all of what remains of it at once; here, 1 MB at a time (bigger reads
     * would allocate and free a buffer of their size at every read).
     */
    public static final int BIG_ARG_READ_BYTES = 1024 * 1024;
    /** PROTO_MBULK_BIG_ARG: from this size on, an argument is gathered straight into its own array. */
    static final int BIG_ARG = 32 * 1024;

    private final DecoderLimits limits;
    private boolean failed;
    private int argsRemaining;
    private byte[][] args;
    private int argCount;
    private long bulkLength = -1;
    /**
     * A big argument being gathered as its bytes arrive (Redis reads such an argument straight into the buffer that
     * becomes the argument): each byte is copied once, instead of the whole input being copied again each time the
     * transport grows its buffer.
     */
    private byte[] bigArg;
    private int bigFilled;
    /**
     * A value of SET (or its kind, MSET's values) of at least a chunk's size, gathered in chunks instead of
     * {@link #bigArg} (decision 0048); once whole, kept in {@link #chunkedValues} at its argument's index (made for the
     * command's announced count when its first value in chunks comes) until the command is complete.
     */
    private ChunkedBytes.Filling filling;
    private ChunkedBytes[] chunkedValues;
    /**
     * A copy of the input being decoded (see {@link #decodeWindow}), kept for the connection's next read while it is
     * no bigger than one read, and {@link #pos}, the place in it.
     */
    private byte[] window;
    private int pos;
    /** Whether the connection was not authenticated when the current {@link #decode} call began. */
    private boolean unauthenticated;
    /** Set once the input passed client-query-buffer-limit: the transport closes the connection, without a reply. */
    private boolean closing;

    public RespParser(DecoderLimits limits) {
        this.limits = limits;
    }

    /**
     * Decodes what {@code in} holds into {@code out} (commands and protocol errors), consuming what it decoded; what is
     * not whole yet stays in {@code in} for the next read. While the connection is not authenticated it stops after
     * one command (see {@link #oneAtATime}): the caller runs it, then calls again for the rest.
     */
    public void decode(Input in, List<Object> out) {
        // no command runs while this decodes (the caller hands them on when it returns), so it holds for the whole call
        unauthenticated = !limits.authenticated();
        decodeInput(in, out);
    }

    /** How many bytes the connection's next read should ask for: more while a big argument arrives. */
    public int nextReadSize() {
        boolean gathering = bigArg != null || filling != null;
        return gathering && bulkLength - gatheredBytes() > READ_BYTES ? BIG_ARG_READ_BYTES : READ_BYTES;
    }

    /** True once the input passed client-query-buffer-limit: the connection is to be closed, without a reply. */
    public boolean closing() {
        return closing;
    }

    private void decodeInput(Input in, List<Object> out) {
        while (in.readableBytes() > 0) {
            if (oneAtATime(out)) {
                return;
            }
            if (failed) {
                in.skip(in.readableBytes());
                return;
            }
            if (argsRemaining > 0 && bulkLength >= BIG_ARG) {
                if (!(filling != null ? gatherChunks(in) : gatherBigArg(in))) {
                    closeIfOverQueryLimit(in);
                    return;
                }
                in.skip(2); // Redis skips the two bytes after the payload without looking at them; so do we
                byte[] arg = bigArg;
                bigArg = null;
                bigFilled = 0;
                if (filling != null) {
                    if (chunkedValues == null) {
                        chunkedValues = new ChunkedBytes[argCount + argsRemaining];
                    }
                    chunkedValues[argCount] = filling.done();
                    filling = null;
                }
                addArg(arg, out); // null for a value in chunks: the command goes out as a ChunkedCommand
                continue;
            }
            if (!decodeWindow(in, out)) {
                if (failed) {
                    in.skip(in.readableBytes()); // after an error the rest of the input is discarded
                } else {
                    closeIfOverQueryLimit(in);
                }
                return;
            }
        }
    }

    /**
     * Decodes what is readable from a copy of it in {@link #window}: headers and arguments under {@link #BIG_ARG} are
     * read with plain array indexing, where reading them through the buffer paid its bounds and wrapper checks for
     * every byte (a pipeline of MSETs spent most of its time there). Consumes what it decoded; returns true when it
     * stopped at a big argument (gathered from the buffer itself) or used up the input, false when the rest is not
     * a whole header or argument yet, or after a protocol error.
     */
    private boolean decodeWindow(Input in, List<Object> out) {
        int end = in.readableBytes();
        if (window == null || window.length < end) {
            window = new byte[Math.max(end, 1024)];
        }
        in.peek(window, 0, end);
        pos = 0;
        boolean whole = decodeCommands(window, end, out);
        in.skip(pos);
        if (window.length > READ_BYTES) {
            window = null; // a big pipeline's copy is not kept (Redis's query buffer shrinks back as well)
        }
        return whole;
    }

    /** The commands in {@code w[pos..end)}; see {@link #decodeWindow}. */
    private boolean decodeCommands(byte[] w, int end, List<Object> out) {
        while (pos < end) {
            if (oneAtATime(out)) {
                return true;
            }
            if (argsRemaining == 0) {
                boolean progressed = w[pos] == '*' ? startMultibulk(w, end, out) : inline(w, end, out);
                if (!progressed || failed) {
                    return false;
                }
                if (argsRemaining == 0) {
                    continue;
                }
            }
            if (!readBulks(w, end, out) || failed) {
                return false;
            }
            if (argsRemaining > 0) {
                return true; // a big argument comes: it is gathered from the buffer, not copied twice
            }
        }
        return true;
    }

    /**
     * Whether to stop at the command just decoded: while the connection is not authenticated, each command runs before
     * the next one is read (as Redis runs a command before it parses the next from its query buffer), so that an AUTH
     * lifts the unauthenticated limits for the commands sent after it in the same write. The caller hands the command
     * on and calls the decoder again for the rest.
     */
    private boolean oneAtATime(List<Object> out) {
        return unauthenticated && !out.isEmpty();
    }

    /**
     * Redis closes a client whose query buffer (input not yet a whole command, such as most of a huge bulk)
     * passes client-query-buffer-limit, without a reply.
     */
    private void closeIfOverQueryLimit(Input in) {
        if ((long) in.readableBytes() + gatheredBytes() > limits.maxQueryBuffer()) {
            failed = true;
            closing = true;
            in.skip(in.readableBytes());
        }
    }

    private boolean inline(byte[] w, int end, List<Object> out) {
        int newline = findInHeader(w, end, (byte) '\n');
        if (newline < 0) {
            if (end - pos > INLINE_MAX_SIZE) {
                fail(out, "too big inline request");
                return true;
            }
            return false;
        }
        int lineEnd = newline;
        if (lineEnd > pos && w[lineEnd - 1] == '\r') {
            lineEnd--;
        }
        byte[] line = Arrays.copyOfRange(w, pos, lineEnd);
        pos = newline + 1;
        byte[][] inlineArgs = InlineSplitter.split(line);
        if (inlineArgs == null) {
            fail(out, "unbalanced quotes in request");
        } else if (inlineArgs.length > 0) {
            out.add(inlineArgs);
        }
        return true;
    }

    private boolean startMultibulk(byte[] w, int end, List<Object> out) {
        int cr = findInHeader(w, end, (byte) '\r');
        if (cr < 0) {
            if (end - pos > INLINE_MAX_SIZE) {
                fail(out, "too big mbulk count string");
                return true;
            }
            return false;
        }
        if (cr + 1 >= end) {
            return false; // the '\n' has not arrived yet
        }
        long count = parseLong(w, pos + 1, cr);
        if (count == Long.MIN_VALUE || count > Integer.MAX_VALUE) {
            fail(out, "invalid multibulk length");
            return true;
        }
        if (count > UNAUTHENTICATED_MAX_ARGS && !limits.authenticated()) {
            fail(out, "unauthenticated multibulk length");
            return true;
        }
        pos = cr + 2;
        if (count <= 0) {
            return true; // an empty request: Redis ignores it
        }
        argsRemaining = (int) count;
        args = new byte[(int) Math.min(count, 1024)][];
        argCount = 0;
        bulkLength = -1;
        return true;
    }

    /**
     * Reads as many bulk arguments as are complete, up to a big one; returns false when more input is needed (or
     * after a protocol error).
     */
    private boolean readBulks(byte[] w, int end, List<Object> out) {
        while (argsRemaining > 0) {
            if (bulkLength < 0) {
                int cr = findInHeader(w, end, (byte) '\r');
                if (cr < 0) {
                    if (end - pos > INLINE_MAX_SIZE) {
                        fail(out, "too big bulk count string");
                        return true;
                    }
                    return false;
                }
                if (cr + 1 >= end) {
                    return false;
                }
                byte first = w[pos];
                if (first != '$') {
                    fail(out, "expected '$', got '" + ByteText.decode(new byte[] {first}) + "'");
                    return true;
                }
                long length = parseLong(w, pos + 1, cr);
                if (length == Long.MIN_VALUE || length < 0 || length > limits.maxBulkLength()) {
                    fail(out, "invalid bulk length");
                    return true;
                }
                if (length > UNAUTHENTICATED_MAX_BULK && !limits.authenticated()) {
                    fail(out, "unauthenticated bulk length");
                    return true;
                }
                pos = cr + 2;
                bulkLength = length;
            }
            if (bulkLength >= BIG_ARG) {
                if (bigArg == null && filling == null) {
                    int chunkSize = argCount >= 2 && ChunkedCommand.storesValueAt(args[0], argCount)
                            ? limits.chunkSizeFor(bulkLength) : 0;
                    if (chunkSize > 0) {
                        filling = ChunkedBytes.filling((int) bulkLength, chunkSize); // a chunk made as it fills
                    } else {
                        // Made at its announced size, as Redis makes room for the whole argument once it reads its
                        // length (sdsMakeRoomForNonGreedy): growing by doubling copied a 500 MB value about once more
                        // and allocated twice its size. proto-max-bulk-len bounds it.
                        bigArg = new byte[(int) bulkLength];
                    }
                }
                return true; // gathered straight from the buffer (decodeInput), not through the window
            }
            // Redis skips the two bytes after the payload without looking at them; so do we.
            if (end - pos < bulkLength + 2) {
                return false;
            }
            int length = (int) bulkLength;
            byte[] arg = Arrays.copyOfRange(w, pos, pos + length);
            pos += length + 2;
            addArg(arg, out);
        }
        return true;
    }

    /** One more argument of the command being read; the command goes out once it has all of them. */
    private void addArg(byte[] arg, List<Object> out) {
        bulkLength = -1;
        if (argCount == args.length) {
            args = Arrays.copyOf(args, Math.min(argCount * 2, argCount + argsRemaining));
        }
        args[argCount++] = arg;
        argsRemaining--;
        if (argsRemaining == 0) {
            byte[][] command = args.length == argCount ? args : Arrays.copyOf(args, argCount);
            out.add(chunkedValues == null ? command : new ChunkedCommand(command, chunkedValues));
            args = null;
            chunkedValues = null;
        }
    }

    /** Moves what has arrived of the big argument into its array; true once it is whole and its CRLF has come. */
    private boolean gatherBigArg(Input in) {
        int length = (int) bulkLength;
        int take = Math.min(in.readableBytes(), length - bigFilled);
        in.read(bigArg, bigFilled, take);
        bigFilled += take;
        return bigFilled == length && in.readableBytes() >= 2;
    }

    /** Moves what has arrived of a value kept in chunks into them; true once it is whole and its CRLF has come. */
    private boolean gatherChunks(Input in) {
        while (in.readableBytes() > 0 && !filling.complete()) {
            int take = Math.min(in.readableBytes(), filling.room());
            in.read(filling.target(), filling.offset(), take);
            filling.advance(take);
        }
        return filling.complete() && in.readableBytes() >= 2;
    }

    /** How much of the big argument under way has arrived (for the query buffer limit and the read size). */
    private int gatheredBytes() {
        return filling != null ? filling.filled() : bigFilled;
    }

    /**
     * Where a header line ends, from {@link #pos}. Redis looks for it with strchr on its NUL-terminated buffer, so a
     * NUL byte hides everything after it: the line then counts as unfinished (and, past 64 KB, as too big). Like
     * Redis, the size check happens only while the end is missing, after each read; the server reads 16 KB at a time
     * as Redis does (PROTO_IOBUF_LEN), so the same input meets the same limits.
     */
    private int findInHeader(byte[] w, int end, byte wanted) {
        for (int i = pos; i < end; i++) {
            byte b = w[i];
            if (b == wanted) {
                return i;
            }
            if (b == 0) {
                return -1;
            }
        }
        return -1;
    }

    private void fail(List<Object> out, String message) {
        failed = true;
        argsRemaining = 0;
        args = null;
        bigArg = null;
        bigFilled = 0;
        filling = null;
        chunkedValues = null;
        out.add(new ProtocolError("Protocol error: " + message));
    }

    /**
     * Parses a decimal integer as Redis's string2ll does: optional '-', no '+', no leading zeros, no spaces.
     * Returns Long.MIN_VALUE when the text is not such a number.
     */
    static long parseLong(byte[] w, int from, int to) {
        int len = to - from;
        if (len <= 0 || len > 20) {
            return Long.MIN_VALUE;
        }
        int i = from;
        boolean negative = false;
        if (w[i] == '-') {
            negative = true;
            i++;
            if (i == to) {
                return Long.MIN_VALUE;
            }
        }
        byte first = w[i];
        if (first == '0') {
            return (i + 1 == to && !negative) ? 0 : Long.MIN_VALUE;
        }
        long value = 0;
        for (; i < to; i++) {
            byte c = w[i];
            if (c < '0' || c > '9') {
                return Long.MIN_VALUE;
            }
            if (value > (Long.MAX_VALUE - (c - '0')) / 10) {
                return Long.MIN_VALUE;
            }
            value = value * 10 + (c - '0');
        }
        return negative ? -value : value;
    }
}
