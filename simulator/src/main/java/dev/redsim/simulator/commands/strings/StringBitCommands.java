package dev.redsim.simulator.commands.strings;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.keyspace.StringValue;

/** SETBIT, GETBIT, BITCOUNT and BITPOS of bitops.c. Bit 0 is the most significant bit of the first byte. */
public final class StringBitCommands implements CommandFamily {
    private static final RedisError BAD_OFFSET = new RedisError("ERR bit offset is not an integer or out of range");
    private static final RedisError BAD_BIT = new RedisError("ERR bit is not an integer or out of range");
    private static final RedisError BAD_BITPOS_BIT = new RedisError("ERR The bit argument must be 1 or 0.");

    @Override
    public void register(CommandTable t) {
        t.handler("setbit", this::setbit);
        t.handler("getbit", this::getbit);
        t.handler("bitcount", this::bitcount);
        t.handler("bitpos", this::bitpos);
    }

    /** A bit offset argument: a non-negative integer whose byte lies below proto-max-bulk-len. */
    private static long bitOffset(CommandContext ctx, int i) {
        Long offset = Numbers.parseLongStrict(ctx.arg(i));
        if (offset == null || offset < 0 || (offset >> 3) >= ctx.engine().config().protoMaxBulkLen()) {
            throw BAD_OFFSET;
        }
        return offset;
    }

    private void setbit(CommandContext ctx) {
        long offset = bitOffset(ctx, 2);
        Long on = Numbers.parseLongStrict(ctx.arg(3));
        if (on == null || (on & ~1L) != 0) {
            throw BAD_BIT;
        }
        Bytes key = ctx.key(1);
        StringValue current = ctx.db().get(key, StringValue.class);
        int byteIndex = (int) (offset >> 3);
        int mask = 1 << (7 - (int) (offset & 7));
        // Redis unshares the value (making it raw) and pads it with zero bytes up to the offset.
        StringValue target = StringValue.editable(current);
        boolean grown = target.growTo(byteIndex + 1);
        if (target != current) {
            ctx.db().putKeepTtl(key, target);
        }
        byte[] bytes = target.array();
        boolean wasSet = (bytes[byteIndex] & mask) != 0;
        if (grown || wasSet != (on == 1)) {
            bytes[byteIndex] = (byte) (on == 1 ? bytes[byteIndex] | mask : bytes[byteIndex] & ~mask);
            ctx.signalModified(key);
            ctx.notifyEvent(KeyspaceEvents.STRING, "setbit", key);
            ctx.dirty(1);
        }
        ctx.reply().integer(wasSet ? 1 : 0);
    }

    private void getbit(CommandContext ctx) {
        long offset = bitOffset(ctx, 2);
        StringValue value = StringCommands.readString(ctx, ctx.key(1));
        if (value == null || (offset >> 3) >= value.length()) {
            ctx.reply().integer(0);
            return;
        }
        int bit = value.readArray()[(int) (offset >> 3)] & (1 << (7 - (int) (offset & 7)));
        ctx.reply().integer(bit != 0 ? 1 : 0);
    }

    /** Whether the unit argument says BIT (true) or BYTE (false); syntax error otherwise. */
    private static boolean bitUnit(CommandContext ctx, int i) {
        if (ctx.is(i, "bit")) {
            return true;
        }
        if (ctx.is(i, "byte")) {
            return false;
        }
        throw RedisError.SYNTAX;
    }

    /**
     * Converts a start/end pair (negative counts from the end) into an inclusive bit range, clamped to the
     * string as Redis clamps it; returns null when the range is empty.
     */
    private static long[] bitRange(long start, long end, long length, boolean inBits) {
        long total = inBits ? length * 8 : length;
        if (start < 0) {
            start = Math.max(0, total + start);
        }
        if (end < 0) {
            end = Math.max(0, total + end);
        }
        if (end >= total) {
            end = total - 1;
        }
        if (start > end) {
            return null;
        }
        return inBits ? new long[] {start, end} : new long[] {start * 8, end * 8 + 7};
    }

    private void bitcount(CommandContext ctx) {
        StringValue value = StringCommands.readString(ctx, ctx.key(1));
        if (value == null) {
            ctx.reply().integer(0);
            return;
        }
        byte[] bytes = value.readArray();
        int length = value.length();
        long[] range;
        if (ctx.argc() == 4 || ctx.argc() == 5) {
            long start = ctx.longArg(2);
            long end = ctx.longArg(3);
            if (start < 0 && end < 0 && start > end) {
                ctx.reply().integer(0);
                return;
            }
            boolean inBits = ctx.argc() == 5 && bitUnit(ctx, 4);
            range = bitRange(start, end, length, inBits);
        } else if (ctx.argc() == 2) {
            range = bitRange(0, -1, length, false);
        } else {
            throw RedisError.SYNTAX;
        }
        ctx.reply().integer(range == null ? 0 : countBits(bytes, range[0], range[1]));
    }

    /** Set bits between two bit positions, inclusive. */
    static long countBits(byte[] bytes, long firstBit, long lastBit) {
        int firstByte = (int) (firstBit >> 3);
        int lastByte = (int) (lastBit >> 3);
        long count = 0;
        int i = firstByte;
        // Whole 8-byte words in the middle go through Long.bitCount.
        for (; i + 8 <= lastByte + 1; i += 8) {
            long word = 0;
            for (int k = 0; k < 8; k++) {
                word = (word << 8) | (bytes[i + k] & 0xffL);
            }
            count += Long.bitCount(word);
        }
        for (; i <= lastByte; i++) {
            count += Integer.bitCount(bytes[i] & 0xff);
        }
        // Take off the bits of the edge bytes that lie outside the range.
        int headMask = (0xff00 >> (int) (firstBit & 7)) & 0xff;
        count -= Integer.bitCount(bytes[firstByte] & headMask);
        int tailMask = (1 << (7 - (int) (lastBit & 7))) - 1;
        count -= Integer.bitCount(bytes[lastByte] & tailMask);
        return count;
    }

    private void bitpos(CommandContext ctx) {
        Long bit = Numbers.parseLongStrict(ctx.arg(2));
        if (bit == null) {
            throw RedisError.NOT_INTEGER;
        }
        if (bit != 0 && bit != 1) {
            throw BAD_BITPOS_BIT;
        }
        StringValue value = StringCommands.readString(ctx, ctx.key(1));
        if (value == null) {
            // A missing key is an endless run of zero bits.
            ctx.reply().integer(bit == 1 ? -1 : 0);
            return;
        }
        byte[] bytes = value.readArray();
        int length = value.length();
        long[] range;
        boolean endGiven = false;
        if (ctx.argc() >= 4 && ctx.argc() <= 6) {
            long start = ctx.longArg(3);
            boolean inBits = ctx.argc() == 6 && bitUnit(ctx, 5);
            long end;
            if (ctx.argc() >= 5) {
                end = ctx.longArg(4);
                endGiven = true;
            } else {
                end = length - 1;
            }
            range = bitRange(start, end, length, inBits);
        } else if (ctx.argc() == 3) {
            range = bitRange(0, -1, length, false);
        } else {
            throw RedisError.SYNTAX;
        }
        if (range == null) {
            ctx.reply().integer(-1);
            return;
        }
        long found = firstBit(bytes, range[0], range[1], bit == 1);
        if (found < 0 && bit == 0 && !endGiven) {
            // Looking for a clear bit with no explicit end: the string continues with zeros.
            found = range[1] + 1;
        }
        ctx.reply().integer(found);
    }

    /** The first bit equal to {@code set} between two bit positions (inclusive), or -1. */
    static long firstBit(byte[] bytes, long firstBit, long lastBit, boolean set) {
        long pos = firstBit;
        int skip = set ? 0 : 0xff; // a byte with no bit of the wanted kind
        while (pos <= lastBit) {
            int b = bytes[(int) (pos >> 3)] & 0xff;
            if ((pos & 7) == 0 && pos + 7 <= lastBit && b == skip) {
                pos += 8;
                continue;
            }
            boolean isSet = (b & (0x80 >> (int) (pos & 7))) != 0;
            if (isSet == set) {
                return pos;
            }
            pos++;
        }
        return -1;
    }
}
