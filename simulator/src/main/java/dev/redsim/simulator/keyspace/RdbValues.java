package dev.redsim.simulator.keyspace;

import dev.redsim.simulator.util.rdb.Intset;
import dev.redsim.simulator.util.rdb.Listpack;
import dev.redsim.simulator.util.rdb.RdbReader;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * RESTORE's side of the RDB format (rdbLoadObject): a value of each type Redis 7.0 writes, built as Redis builds
 * it while loading, so it ends with the encoding Redis would give it. Anything malformed, empty or duplicated
 * throws {@link RdbReader.Malformed} ("Bad data format").
 */
public final class RdbValues {
    private RdbValues() {
    }

    public static RedisValue read(RdbReader in, EncodingLimits limits) {
        int type = in.readByte();
        return switch (type) {
            case RdbTypes.STRING -> StringValue.of(in.readString());
            case RdbTypes.LIST_QUICKLIST_2 -> list(in);
            case RdbTypes.SET -> set(in, limits);
            case RdbTypes.SET_INTSET -> intset(in, limits);
            case RdbTypes.ZSET_2 -> zset(in, limits);
            case RdbTypes.ZSET_LISTPACK -> zsetListpack(in, limits);
            case RdbTypes.HASH -> hash(in, limits);
            case RdbTypes.HASH_LISTPACK -> hashListpack(in, limits);
            case RdbTypes.STREAM_LISTPACKS_2 -> StreamRdb.read(in);
            default -> throw new RdbReader.Malformed("type " + type + " is not read here");
        };
    }

    private static ListValue list(RdbReader in) {
        ListValue list = new ListValue();
        long nodes = in.readLength();
        for (long i = 0; i < nodes; i++) {
            long container = in.readLength();
            byte[] blob = in.readString();
            if (container == RdbTypes.QUICKLIST_NODE_PLAIN) {
                list.addLast(blob);
            } else if (container == RdbTypes.QUICKLIST_NODE_PACKED) {
                for (byte[] element : Listpack.parse(blob)) { // an empty node is skipped, as Redis skips it
                    list.addLast(element);
                }
            } else {
                throw new RdbReader.Malformed("quicklist container");
            }
        }
        return nonEmpty(list, list.isEmpty());
    }

    private static SetValue set(RdbReader in, EncodingLimits limits) {
        SetValue set = new SetValue();
        int n = in.readCount();
        for (int i = 0; i < n; i++) {
            if (!set.add(in.readString(), limits)) {
                throw new RdbReader.Malformed("duplicate set member");
            }
        }
        return nonEmpty(set, set.isEmpty());
    }

    private static SetValue intset(RdbReader in, EncodingLimits limits) {
        SetValue set = new SetValue();
        byte[] blob = in.readString();
        for (long member : Intset.decode(blob)) {
            if (!set.add(Long.toString(member).getBytes(StandardCharsets.US_ASCII), limits)) {
                throw new RdbReader.Malformed("duplicate intset member");
            }
        }
        set.widenIntset(Intset.width(blob));
        return nonEmpty(set, set.isEmpty());
    }

    /** Loaded as a skiplist, then made a listpack when it fits (zsetConvertToListpackIfNeeded). */
    private static SortedSetValue zset(RdbReader in, EncodingLimits limits) {
        SortedSetValue zset = SortedSetValue.forResult();
        int n = in.readCount();
        for (int i = 0; i < n; i++) {
            byte[] member = in.readString();
            double score = in.readBinaryDouble();
            if (Double.isNaN(score) || !zset.put(Bytes.wrap(member), score)) {
                throw new RdbReader.Malformed("bad or duplicate zset member");
            }
        }
        nonEmpty(zset, zset.isEmpty());
        zset.encodeAsResult(limits);
        return zset;
    }

    /** Kept as a listpack unless it has more entries than zset-max-listpack-entries. */
    private static SortedSetValue zsetListpack(RdbReader in, EncodingLimits limits) {
        List<byte[]> entries = Listpack.parse(in.readString());
        if (entries.size() % 2 != 0) {
            throw new RdbReader.Malformed("odd zset listpack");
        }
        SortedSetValue zset = new SortedSetValue();
        for (int i = 0; i < entries.size(); i += 2) {
            Double score = Numbers.parseDoubleUnchecked(entries.get(i + 1));
            if (score == null || !zset.put(Bytes.wrap(entries.get(i)), score)) {
                throw new RdbReader.Malformed("bad or duplicate zset entry");
            }
        }
        nonEmpty(zset, zset.isEmpty());
        if (zset.size() > limits.zsetMaxListpackEntries()) {
            zset.convertToSkiplist();
        }
        return zset;
    }

    private static HashValue hash(RdbReader in, EncodingLimits limits) {
        HashValue hash = new HashValue();
        int n = in.readCount();
        for (int i = 0; i < n; i++) {
            byte[] field = in.readString();
            byte[] value = in.readString();
            if (hash.set(limits, Bytes.wrap(field), value)) {
                throw new RdbReader.Malformed("duplicate hash field");
            }
        }
        return nonEmpty(hash, hash.isEmpty());
    }

    private static HashValue hashListpack(RdbReader in, EncodingLimits limits) {
        List<byte[]> entries = Listpack.parse(in.readString());
        if (entries.size() % 2 != 0) {
            throw new RdbReader.Malformed("odd hash listpack");
        }
        HashValue hash = new HashValue();
        for (int i = 0; i < entries.size(); i += 2) {
            if (hash.set(limits, Bytes.wrap(entries.get(i)), entries.get(i + 1))) {
                throw new RdbReader.Malformed("duplicate hash field");
            }
        }
        return nonEmpty(hash, hash.isEmpty());
    }

    private static <T> T nonEmpty(T value, boolean empty) {
        if (empty) {
            throw new RdbReader.Malformed("empty key");
        }
        return value;
    }
}
