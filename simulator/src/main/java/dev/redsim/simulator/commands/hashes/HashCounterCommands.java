package dev.redsim.simulator.commands.hashes;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.HashValue;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.util.LongDoubleMath;

/** HINCRBY and HINCRBYFLOAT: numeric fields of a hash. */
final class HashCounterCommands implements CommandFamily {
    private static final RedisError NOT_INTEGER_FIELD = new RedisError("ERR hash value is not an integer");
    private static final RedisError NOT_FLOAT_FIELD = new RedisError("ERR hash value is not a float");
    private static final byte[] ZERO = {(byte) '0'};
    private static final RedisError NOT_FINITE_INCREMENT = new RedisError("ERR value is NaN or Infinity");
    private static final RedisError NOT_FINITE_RESULT =
            new RedisError("ERR increment would produce NaN or Infinity");

    @Override
    public void register(CommandTable t) {
        t.handler("hincrby", this::hincrby);
        t.handler("hincrbyfloat", this::hincrbyfloat);
    }

    private void hincrby(CommandContext ctx) {
        long increment = ctx.longArg(3);
        Bytes key = ctx.key(1);
        HashValue hash = HashCommands.writeHashOrCreate(ctx, key);
        Bytes field = ctx.key(2);
        byte[] current = hash.get(field);
        long value = 0;
        if (current != null) {
            Long parsed = Numbers.parseLongStrict(current);
            if (parsed == null) {
                throw NOT_INTEGER_FIELD;
            }
            value = parsed;
        }
        if ((increment < 0 && value < 0 && increment < Long.MIN_VALUE - value)
                || (increment > 0 && value > 0 && increment > Long.MAX_VALUE - value)) {
            throw RedisError.OVERFLOW;
        }
        value += increment;
        hash.set(ctx.engine().config(), field, Numbers.toBytes(value));
        ctx.reply().integer(value);
        HashCommands.changed(ctx, key, "hincrby", 1);
    }

    private void hincrbyfloat(CommandContext ctx) {
        LongDoubleMath.Value increment = LongDoubleMath.parse(ctx.arg(3));
        if (increment == null) {
            throw RedisError.NOT_FLOAT;
        }
        if (!increment.isFinite()) {
            throw NOT_FINITE_INCREMENT;
        }
        Bytes key = ctx.key(1);
        HashValue hash = HashCommands.writeHashOrCreate(ctx, key);
        Bytes field = ctx.key(2);
        byte[] current = hash.get(field);
        LongDoubleMath.Value value = LongDoubleMath.parse(current == null ? ZERO : current);
        if (value == null) {
            throw NOT_FLOAT_FIELD;
        }
        LongDoubleMath.Value sum = LongDoubleMath.add(value, increment);
        if (sum == null || !sum.isFinite()) {
            throw NOT_FINITE_RESULT;
        }
        byte[] result = LongDoubleMath.format(sum);
        hash.set(ctx.engine().config(), field, result);
        ctx.propagateAs("HSET", ctx.arg(1), ctx.arg(2), result); // the replica stores the result, not the sum
        ctx.reply().bulk(result);
        HashCommands.changed(ctx, key, "hincrbyfloat", 1);
    }
}
