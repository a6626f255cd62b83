package dev.redsim.simulator.engine;

import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.keyspace.RedisValue;
import dev.redsim.simulator.util.rdb.Crc64;
import dev.redsim.simulator.util.rdb.RdbWriter;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A whole RDB file of the current data (rdbSaveRio in rdb.c), as a master sends it to a replica: the "REDIS0010"
 * header, the aux fields redis-server writes (redis-ver, redis-bits, ctime, used-mem, then for a replica
 * repl-stream-db, repl-id and repl-offset, then aof-base), the function libraries, each non-empty database
 * (SELECTDB, RESIZEDB, then every key with its expiry time), EOF and the CRC-64 of everything before it. Values are
 * written by their own types ({@link RedisValue#writeRdb}); keys already expired are left out, as Redis leaves
 * them out of an RDB it saves.
 */
public final class RdbSnapshot {
    private static final int OPCODE_AUX = 0xFA;
    private static final int OPCODE_RESIZEDB = 0xFB;
    private static final int OPCODE_EXPIRETIME_MS = 0xFC;
    private static final int OPCODE_SELECTDB = 0xFE;
    private static final int OPCODE_EOF = 0xFF;

    private RdbSnapshot() {
    }

    /**
     * @param functions the function libraries as FUNCTION DUMP's body (opcode and code per library, no footer)
     */
    public static byte[] write(Database[] databases, String redisVersion, long nowMillis, long usedMemory,
                               Replication.ReplicationInfo replication, byte[] functions) {
        RdbWriter out = new RdbWriter();
        byte[] magic = "REDIS0010".getBytes(StandardCharsets.US_ASCII);
        out.writeRaw(magic, 0, magic.length);
        aux(out, "redis-ver", redisVersion);
        aux(out, "redis-bits", "64");
        aux(out, "ctime", Long.toString(nowMillis / 1000));
        aux(out, "used-mem", Long.toString(usedMemory));
        if (replication != null) {
            aux(out, "repl-stream-db", Integer.toString(replication.streamDb()));
            aux(out, "repl-id", replication.replid());
            aux(out, "repl-offset", Long.toString(replication.offset()));
        }
        aux(out, "aof-base", "0");
        out.writeRaw(functions, 0, functions.length);
        for (Database db : databases) {
            writeDatabase(out, db, nowMillis);
        }
        out.writeByte(OPCODE_EOF);
        byte[] body = out.toByteArray();
        long crc = Crc64.of(body, 0, body.length);
        byte[] file = java.util.Arrays.copyOf(body, body.length + 8);
        for (int i = 0; i < 8; i++) {
            file[body.length + i] = (byte) (crc >>> (8 * i));
        }
        return file;
    }

    /** An aux field: both sides as RDB strings (numbers get the integer encoding, as rdbSaveAuxFieldStrInt). */
    private static void aux(RdbWriter out, String key, String value) {
        out.writeByte(OPCODE_AUX);
        out.writeString(key.getBytes(StandardCharsets.US_ASCII));
        out.writeString(value.getBytes(StandardCharsets.US_ASCII));
    }

    private static void writeDatabase(RdbWriter out, Database db, long nowMillis) {
        if (db.size() == 0) {
            return;
        }
        RdbWriter keys = new RdbWriter();
        long written = 0;
        long withExpiry = 0;
        for (Map.Entry<Bytes, RedisValue> entry : db.entries().entrySet()) {
            Bytes key = entry.getKey();
            long expireAt = db.expireAt(key);
            if (expireAt >= 0 && expireAt <= nowMillis) {
                continue; // expired but not yet removed: not data any more
            }
            RdbWriter value = new RdbWriter();
            entry.getValue().writeRdb(value);
            byte[] typed = value.toByteArray(); // the type byte, then the value
            if (expireAt >= 0) {
                keys.writeByte(OPCODE_EXPIRETIME_MS);
                for (int i = 0; i < 8; i++) {
                    keys.writeByte((int) (expireAt >>> (8 * i)) & 0xff);
                }
                withExpiry++;
            }
            keys.writeByte(typed[0] & 0xff);
            keys.writeString(key.bytes());
            keys.writeRaw(typed, 1, typed.length);
            written++;
        }
        if (written == 0) {
            return;
        }
        out.writeByte(OPCODE_SELECTDB);
        out.writeLength(db.id());
        out.writeByte(OPCODE_RESIZEDB);
        out.writeLength(written);
        out.writeLength(withExpiry);
        byte[] body = keys.toByteArray();
        out.writeRaw(body, 0, body.length);
    }
}
