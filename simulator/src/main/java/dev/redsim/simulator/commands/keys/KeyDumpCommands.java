package dev.redsim.simulator.commands.keys;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.AccessTracked;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.RdbValues;
import dev.redsim.simulator.keyspace.RedisValue;
import dev.redsim.simulator.util.rdb.Crc64;
import dev.redsim.simulator.util.rdb.RdbReader;
import dev.redsim.simulator.util.rdb.RdbWriter;

/**
 * DUMP and RESTORE (cluster.c): a value in Redis's RDB serialization followed by the RDB version (10, two bytes
 * little-endian) and the CRC-64 of everything before (eight bytes little-endian), and back, with RESTORE's
 * options and checks in Redis's order.
 */
public final class KeyDumpCommands implements CommandFamily {
    private static final int RDB_VERSION = 10;
    private static final RedisError BAD_PAYLOAD = new RedisError("ERR DUMP payload version or checksum are wrong");
    private static final RedisError BAD_FORMAT = new RedisError("ERR Bad data format");
    private static final RedisError BUSY_KEY = new RedisError("BUSYKEY Target key name already exists.");
    private static final RedisError BAD_TTL = new RedisError("ERR Invalid TTL value, must be >= 0");
    private static final RedisError BAD_IDLETIME = new RedisError("ERR Invalid IDLETIME value, must be >= 0");
    private static final RedisError BAD_FREQ = new RedisError("ERR Invalid FREQ value, must be >= 0 and <= 255");

    @Override
    public void register(CommandTable t) {
        t.handler("dump", this::dump);
        t.handler("restore", this::restore);
        // RESTORE as a cluster node receiving a migrating key runs it; outside a cluster it is RESTORE
        t.handler("restore-asking", this::restore);
    }

    private void dump(CommandContext ctx) {
        RedisValue value = ctx.db().getForRead(ctx.key(1));
        if (value == null) {
            ctx.reply().nullBulk();
            return;
        }
        ctx.reply().bulk(dumpPayload(value));
    }

    /** DUMP's payload of a value (createDumpPayload), which MIGRATE sends too. */
    public static byte[] dumpPayload(RedisValue value) {
        RdbWriter out = new RdbWriter();
        value.writeRdb(out);
        return payload(out.toByteArray());
    }

    /** The serialized value with its version and checksum (createDumpPayload). */
    static byte[] payload(byte[] body) {
        byte[] payload = java.util.Arrays.copyOf(body, body.length + 10);
        payload[body.length] = (byte) RDB_VERSION;
        payload[body.length + 1] = 0;
        long crc = Crc64.of(payload, 0, body.length + 2);
        for (int i = 0; i < 8; i++) {
            payload[body.length + 2 + i] = (byte) (crc >>> (8 * i));
        }
        return payload;
    }

    /** verifyDumpPayload: at least the footer, a version this server reads, and a matching CRC-64. */
    private static boolean verified(byte[] payload) {
        int len = payload.length;
        if (len < 10) {
            return false;
        }
        int version = (payload[len - 10] & 0xff) | (payload[len - 9] & 0xff) << 8;
        if (version > RDB_VERSION) {
            return false;
        }
        long crc = 0;
        for (int i = 0; i < 8; i++) {
            crc |= (payload[len - 8 + i] & 0xffL) << (8 * i);
        }
        return crc == Crc64.of(payload, 0, len - 8);
    }

    private void restore(CommandContext ctx) {
        boolean replace = false;
        boolean absoluteTtl = false;
        long idle = -1;
        long frequency = -1;
        for (int j = 4; j < ctx.argc(); j++) {
            int more = ctx.argc() - j - 1;
            if (ctx.is(j, "replace")) {
                replace = true;
            } else if (ctx.is(j, "absttl")) {
                absoluteTtl = true;
            } else if (ctx.is(j, "idletime") && more >= 1 && frequency == -1) {
                idle = ctx.longArg(j + 1);
                if (idle < 0) {
                    throw BAD_IDLETIME;
                }
                j++;
            } else if (ctx.is(j, "freq") && more >= 1 && idle == -1) {
                frequency = ctx.longArg(j + 1);
                if (frequency < 0 || frequency > 255) {
                    throw BAD_FREQ;
                }
                j++;
            } else {
                throw RedisError.SYNTAX;
            }
        }
        Bytes key = ctx.key(1);
        if (!replace && ctx.db().get(key) != null) {
            throw BUSY_KEY;
        }
        long ttl = ctx.longArg(2);
        if (ttl < 0) {
            throw BAD_TTL;
        }
        byte[] payload = ctx.arg(3);
        if (!verified(payload)) {
            throw BAD_PAYLOAD;
        }
        RedisValue value;
        try {
            // Redis reads the value from the whole payload, footer included: a value that runs into the footer
            // takes its bytes, as in Redis
            value = RdbValues.read(new RdbReader(payload, 0, payload.length), ctx.engine().config());
        } catch (RdbReader.Malformed e) {
            throw BAD_FORMAT;
        }
        boolean deleted = replace && ctx.db().delete(key);
        if (ttl != 0 && !absoluteTtl) {
            ttl += ctx.now();
        }
        if (ttl != 0 && ttl <= ctx.now()) {
            // already expired: the key is not created (and one it replaced is gone)
            if (deleted) {
                ctx.signalModified(key);
                ctx.notifyEvent(KeyspaceEvents.GENERIC, "del", key);
                ctx.dirty(1);
                boolean lazy = ctx.engine().config().get("lazyfree-lazy-server-del").equals("yes");
                ctx.propagateAs(lazy ? "UNLINK" : "DEL", ctx.arg(1)); // what happened here: the old key went
            }
            ctx.reply().ok();
            return;
        }
        ctx.db().put(key, value);
        if (ttl != 0) {
            ctx.db().setExpire(key, ttl);
            if (!absoluteTtl) {
                // the replica gets the absolute time: RESTORE key <ms> payload [options] ABSTTL
                byte[][] propagated = java.util.Arrays.copyOf(ctx.args(), ctx.argc() + 1);
                propagated[2] = Long.toString(ttl).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                propagated[ctx.argc()] = "ABSTTL".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                ctx.propagateAs(propagated);
            }
        }
        boolean lfu = String.valueOf(ctx.engine().config().get("maxmemory-policy")).contains("lfu");
        if (lfu && frequency >= 0) {
            ((AccessTracked) value).frequency((int) frequency, ctx.now());
        } else if (!lfu && idle >= 0) {
            value.accessedAt(ctx.now() - idle * 1000);
        }
        ctx.signalModified(key);
        ctx.notifyEvent(KeyspaceEvents.GENERIC, "restore", key);
        ctx.dirty(1);
        ctx.reply().ok();
    }
}
