package dev.redsim.simulator.commands.strings;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.command.KeyRef;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.keyspace.StringValue;

import java.util.ArrayList;
import java.util.List;

/**
 * BITFIELD and BITFIELD_RO of bitops.c: integers of 1 to 64 bits (u63 at most unsigned) at any bit offset of a
 * string, bit 0 being the most significant bit of the first byte. Every operation is parsed before any runs, so
 * a bad argument anywhere leaves the string as it was; each operation costs O(1).
 */
public final class StringBitFieldCommands implements CommandFamily {
    private static final RedisError BAD_TYPE = new RedisError(
            "ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.");
    private static final RedisError BAD_OFFSET = new RedisError("ERR bit offset is not an integer or out of range");
    private static final RedisError BAD_OVERFLOW = new RedisError("ERR Invalid OVERFLOW type specified");
    private static final RedisError RO_GET_ONLY = new RedisError("ERR BITFIELD_RO only supports the GET subcommand");

    private enum Opcode { GET, SET, INCRBY }

    /** One parsed operation, with the OVERFLOW mode in force where it appeared. */
    private record Op(Opcode opcode, BitFieldType type, long offset, long value, BitFieldOverflow overflow) {
    }

    @Override
    public void register(CommandTable t) {
        t.handler("bitfield", ctx -> bitfield(ctx, false), StringBitFieldCommands::bitfieldKeys);
        t.handler("bitfield_ro", ctx -> bitfield(ctx, true));
    }

    /**
     * BITFIELD's key with the flags of this call (Redis's bitfieldGetKeys; the key spec says variable_flags): "RO
     * access" when only GET and OVERFLOW follow, "RW access update" from the first SET or INCRBY, and also on
     * anything it cannot read, which Redis treats as a write to be safe.
     */
    private static List<KeyRef> bitfieldKeys(byte[][] args) {
        boolean readOnly = true;
        for (int i = 2; i < args.length; i++) {
            int remaining = args.length - i - 1;
            String word = CommandTable.lowerAscii(args[i]);
            if (word.equals("get") && remaining >= 2) {
                i += 2;
            } else if (word.equals("overflow") && remaining >= 1) {
                i += 1;
            } else {
                readOnly = false; // SET, INCRBY, or a syntax error
                break;
            }
        }
        return List.of(new KeyRef(1, readOnly ? List.of("RO", "access") : List.of("RW", "access", "update")));
    }

    private void bitfield(CommandContext ctx, boolean readOnlyCommand) {
        List<Op> ops = new ArrayList<>();
        BitFieldOverflow overflow = BitFieldOverflow.WRAP;
        boolean writes = false;
        long highestWrittenBit = 0;
        for (int j = 2; j < ctx.argc(); j++) {
            int remaining = ctx.argc() - j - 1;
            Opcode opcode;
            if (ctx.is(j, "get") && remaining >= 2) {
                opcode = Opcode.GET;
            } else if (ctx.is(j, "set") && remaining >= 3) {
                opcode = Opcode.SET;
            } else if (ctx.is(j, "incrby") && remaining >= 3) {
                opcode = Opcode.INCRBY;
            } else if (ctx.is(j, "overflow") && remaining >= 1) {
                overflow = overflowMode(ctx, ++j);
                continue;
            } else {
                throw RedisError.SYNTAX;
            }
            BitFieldType type = type(ctx.arg(j + 1));
            long offset = offset(ctx, ctx.arg(j + 2), type.bits());
            long value = 0;
            if (opcode != Opcode.GET) {
                writes = true;
                highestWrittenBit = Math.max(highestWrittenBit, offset + type.bits() - 1);
                value = ctx.longArg(j + 3);
            }
            ops.add(new Op(opcode, type, offset, value, overflow));
            j += opcode == Opcode.GET ? 2 : 3;
        }
        if (!writes) {
            StringValue value = StringCommands.readString(ctx, ctx.key(1));
            byte[] bytes = value == null ? new byte[0] : value.readArray();
            int length = value == null ? 0 : value.length();
            ctx.reply().array(ops.size());
            for (Op op : ops) {
                ctx.reply().integer(op.type().read(bytes, length, op.offset()));
            }
            return;
        }
        if (readOnlyCommand) {
            throw RO_GET_ONLY;
        }
        runWithWrites(ctx, ops, highestWrittenBit);
    }

    /**
     * As Redis's lookupStringForBitCommand: the string is created, or unshared and padded with zero bytes, up to
     * the farthest bit any SET or INCRBY reaches, before the operations run (even if all of them then fail).
     */
    private void runWithWrites(CommandContext ctx, List<Op> ops, long highestWrittenBit) {
        Bytes key = ctx.key(1);
        StringValue current = ctx.db().get(key, StringValue.class);
        StringValue target = StringValue.editable(current);
        boolean grown = target.growTo((int) (highestWrittenBit >> 3) + 1);
        if (target != current) {
            ctx.db().putKeepTtl(key, target);
        }
        byte[] bytes = target.array();
        int length = target.length();
        long changes = 0;
        ctx.reply().array(ops.size());
        for (Op op : ops) {
            BitFieldType type = op.type();
            if (op.opcode() == Opcode.GET) {
                ctx.reply().integer(type.read(bytes, length, op.offset()));
                continue;
            }
            long old = type.read(bytes, length, op.offset());
            Long stored = op.opcode() == Opcode.INCRBY
                    ? type.add(old, op.value(), op.overflow())
                    : type.add(op.value(), 0, op.overflow());
            if (stored == null) {
                ctx.reply().nullBulk(); // OVERFLOW FAIL: nothing written
                continue;
            }
            ctx.reply().integer(op.opcode() == Opcode.INCRBY ? stored : old);
            type.write(bytes, op.offset(), stored);
            if (grown || old != stored) {
                changes++;
            }
        }
        if (changes > 0) {
            ctx.signalModified(key);
            ctx.notifyEvent(KeyspaceEvents.STRING, "setbit", key);
            ctx.dirty(changes);
        }
    }

    private static BitFieldOverflow overflowMode(CommandContext ctx, int i) {
        if (ctx.is(i, "wrap")) {
            return BitFieldOverflow.WRAP;
        }
        if (ctx.is(i, "sat")) {
            return BitFieldOverflow.SAT;
        }
        if (ctx.is(i, "fail")) {
            return BitFieldOverflow.FAIL;
        }
        throw BAD_OVERFLOW;
    }

    /** "i1" to "i64" or "u1" to "u63". */
    private static BitFieldType type(byte[] arg) {
        if (arg.length == 0 || (arg[0] != 'i' && arg[0] != 'u')) {
            throw BAD_TYPE;
        }
        boolean signed = arg[0] == 'i';
        Long bits = Numbers.parseLongStrict(java.util.Arrays.copyOfRange(arg, 1, arg.length));
        if (bits == null || bits < 1 || bits > (signed ? 64 : 63)) {
            throw BAD_TYPE;
        }
        return new BitFieldType(signed, bits.intValue());
    }

    /** A bit offset, or "#n" for the n-th field of this width; its byte must lie below proto-max-bulk-len. */
    private static long offset(CommandContext ctx, byte[] arg, int bits) {
        boolean byField = arg.length > 0 && arg[0] == '#';
        Long parsed = Numbers.parseLongStrict(byField ? java.util.Arrays.copyOfRange(arg, 1, arg.length) : arg);
        if (parsed == null) {
            throw BAD_OFFSET;
        }
        long offset = byField ? parsed * bits : parsed; // wraps like Redis's multiplication
        if (offset < 0 || (offset >> 3) >= ctx.engine().config().protoMaxBulkLen()) {
            throw BAD_OFFSET;
        }
        return offset;
    }
}
