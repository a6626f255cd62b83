package dev.redsim.simulator.commands.hyperloglog;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.StringValue;

/**
 * HLLs read from and written back to string values, with Redis's errors: a string that is not an HLL (an int
 * encoded string, too short, no magic, a dense one of the wrong size) and opcodes found corrupt when read.
 */
final class HllValues {
    static final RedisError NOT_HLL = new RedisError("WRONGTYPE Key is not a valid HyperLogLog string value.");
    static final RedisError CORRUPT = new RedisError("INVALIDOBJ Corrupted HLL object detected");

    private HllValues() {
    }

    /** An HLL to read, over the value's own bytes; NOT_HLL when the string is not one (isHLLObjectOrReply). */
    static Hll read(StringValue value) {
        if (value.encoding().equals("int") || !Hll.looksValid(value.readArray(), value.length())) {
            throw NOT_HLL;
        }
        return new Hll(value.readArray(), value.length());
    }

    /**
     * An HLL to change: the key's value unshared first (Redis's dbUnshareStringValue: a raw copy stored under the
     * key unless it is already one), so edits go to that value's bytes; {@link #store} then keeps the result.
     */
    static Editable edit(CommandContext ctx, Bytes key, StringValue value) {
        read(value);
        StringValue target = StringValue.editable(value);
        if (target != value) {
            ctx.db().putKeepTtl(key, target);
        }
        return new Editable(key, target, new Hll(target.array(), target.length()));
    }

    /** A new empty HLL stored under a missing key (createHLLObject + dbAdd). */
    static Editable create(CommandContext ctx, Bytes key) {
        Hll hll = Hll.empty();
        StringValue value = StringValue.edited(hll.toByteArray());
        ctx.db().put(key, value);
        return new Editable(key, value, new Hll(value.array(), value.length()));
    }

    /** An HLL being changed under a key. */
    record Editable(Bytes key, StringValue value, Hll hll) {
        /** Keeps what the edits did: in place when the bytes stayed where they were, else a new value. */
        void store(CommandContext ctx) {
            if (hll.bytes != value.array() || hll.length != value.length()) {
                ctx.db().putKeepTtl(key, StringValue.edited(hll.toByteArray()));
            }
        }
    }
}
