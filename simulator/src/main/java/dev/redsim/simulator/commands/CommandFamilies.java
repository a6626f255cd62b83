package dev.redsim.simulator.commands;

import dev.redsim.simulator.acl.Acl;
import dev.redsim.simulator.cluster.ClusterState;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandCatalog;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.command.TableLayout;
import dev.redsim.simulator.commands.acl.AclCommands;
import dev.redsim.simulator.commands.connection.ClientCommands;
import dev.redsim.simulator.commands.connection.ConnectionCommands;
import dev.redsim.simulator.commands.hashes.HashCommands;
import dev.redsim.simulator.commands.geo.GeoCommands;
import dev.redsim.simulator.commands.geo.GeoSearchCommands;
import dev.redsim.simulator.commands.hyperloglog.HyperLogLogCommands;
import dev.redsim.simulator.commands.hyperloglog.HyperLogLogDebugCommands;
import dev.redsim.simulator.commands.keys.KeyCommands;
import dev.redsim.simulator.commands.keys.KeyDumpCommands;
import dev.redsim.simulator.commands.keys.KeyMemoryCommands;
import dev.redsim.simulator.commands.keys.KeySortCommands;
import dev.redsim.simulator.commands.lists.ListBlockingCommands;
import dev.redsim.simulator.commands.lists.ListCommands;
import dev.redsim.simulator.commands.pubsub.PubSubCommands;
import dev.redsim.simulator.commands.scripting.FunctionCommands;
import dev.redsim.simulator.commands.scripting.ScriptingCommands;
import dev.redsim.simulator.commands.server.CommandCommands;
import dev.redsim.simulator.commands.server.ConfigCommands;
import dev.redsim.simulator.commands.server.DebugCommands;
import dev.redsim.simulator.commands.server.InfoCommands;
import dev.redsim.simulator.commands.server.MemoryCommands;
import dev.redsim.simulator.commands.server.MonitorCommand;
import dev.redsim.simulator.commands.server.ReplicationCommands;
import dev.redsim.simulator.commands.server.ServerCommands;
import dev.redsim.simulator.commands.server.LatencyCommands;
import dev.redsim.simulator.commands.server.SlowlogCommands;
import dev.redsim.simulator.commands.sets.SetCommands;
import dev.redsim.simulator.commands.streams.StreamCommands;
import dev.redsim.simulator.commands.cluster.ClusterCommands;
import dev.redsim.simulator.commands.cluster.MigrateCommand;
import dev.redsim.simulator.commands.sortedsets.SortedSetBlockingCommands;
import dev.redsim.simulator.commands.sortedsets.SortedSetCommands;
import dev.redsim.simulator.commands.strings.StringBitCommands;
import dev.redsim.simulator.commands.strings.StringBitFieldCommands;
import dev.redsim.simulator.commands.strings.StringBitOpCommands;
import dev.redsim.simulator.commands.strings.StringCommands;
import dev.redsim.simulator.commands.strings.StringExpiryCommands;
import dev.redsim.simulator.commands.strings.StringFloatCommands;
import dev.redsim.simulator.commands.strings.StringLcsCommands;
import dev.redsim.simulator.commands.strings.StringRangeCommands;
import dev.redsim.simulator.commands.transactions.TransactionCommands;
import dev.redsim.simulator.scripting.Scripting;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Every command family of the simulator and the commands each binds; the command table is built from this list.
 * A simulator declares the families by these names and binds each on the first use of one of its commands
 * (decision 0026); {@code LazyFamiliesTest} checks that each family binds exactly the names written here.
 */
public final class CommandFamilies {
    /** Family (its class's simple name) and the commands it binds: "get", "config|get", "command" (a container's own). */
    private static final List<Map.Entry<String, String>> FAMILIES = List.of(
            Map.entry("ConnectionCommands",
                    "auth echo hello ping quit reset select"),
            Map.entry("ClientCommands",
                    "client|caching client|getname client|getredir client|help client|id client|info"
                    + " client|kill client|list client|no-evict client|pause client|reply client|setname"
                    + " client|tracking client|trackinginfo client|unblock client|unpause"),
            Map.entry("ServerCommands",
                    "bgsave dbsize flushall flushdb lastsave save shutdown swapdb time"),
            Map.entry("InfoCommands",
                    "info"),
            Map.entry("MemoryCommands",
                    "memory|help memory|malloc-stats memory|purge memory|stats"),
            Map.entry("ConfigCommands",
                    "config|get config|help config|resetstat config|rewrite config|set"),
            Map.entry("CommandCommands",
                    "command command|count command|docs command|getkeys command|getkeysandflags"
                    + " command|help command|info command|list"),
            Map.entry("DebugCommands",
                    "debug"),
            Map.entry("SlowlogCommands",
                    "slowlog|get slowlog|help slowlog|len slowlog|reset"),
            Map.entry("LatencyCommands",
                    "latency|doctor latency|graph latency|help latency|histogram latency|history"
                    + " latency|latest latency|reset"),
            Map.entry("MonitorCommand",
                    "monitor"),
            Map.entry("ReplicationCommands",
                    "psync replconf replicaof role slaveof sync wait"),
            Map.entry("KeyMemoryCommands",
                    "memory|usage"),
            Map.entry("KeyCommands",
                    "copy del exists expire expireat expiretime keys move object|encoding object|freq"
                    + " object|help object|idletime object|refcount persist pexpire pexpireat pexpiretime"
                    + " pttl randomkey rename renamenx scan touch ttl type unlink"),
            Map.entry("KeySortCommands",
                    "sort sort_ro"),
            Map.entry("KeyDumpCommands",
                    "dump restore restore-asking"),
            Map.entry("StringCommands",
                    "append decr decrby get getdel getset incr incrby mget mset msetnx psetex set setex"
                    + " setnx strlen"),
            Map.entry("StringExpiryCommands",
                    "getex"),
            Map.entry("StringFloatCommands",
                    "incrbyfloat"),
            Map.entry("StringRangeCommands",
                    "getrange setrange substr"),
            Map.entry("StringLcsCommands",
                    "lcs"),
            Map.entry("StringBitCommands",
                    "bitcount bitpos getbit setbit"),
            Map.entry("StringBitOpCommands",
                    "bitop"),
            Map.entry("StringBitFieldCommands",
                    "bitfield bitfield_ro"),
            Map.entry("HyperLogLogCommands",
                    "pfadd pfcount pfmerge"),
            Map.entry("HyperLogLogDebugCommands",
                    "pfdebug pfselftest"),
            Map.entry("ListCommands",
                    "lindex linsert llen lmove lmpop lpop lpos lpush lpushx lrange lrem lset ltrim rpop"
                    + " rpoplpush rpush rpushx"),
            Map.entry("ListBlockingCommands",
                    "blmove blmpop blpop brpop brpoplpush"),
            Map.entry("HashCommands",
                    "hdel hexists hget hgetall hincrby hincrbyfloat hkeys hlen hmget hmset hrandfield"
                    + " hscan hset hsetnx hstrlen hvals"),
            Map.entry("SetCommands",
                    "sadd scard sdiff sdiffstore sinter sintercard sinterstore sismember smembers"
                    + " smismember smove spop srandmember srem sscan sunion sunionstore"),
            Map.entry("SortedSetCommands",
                    "zadd zcard zcount zdiff zdiffstore zincrby zinter zintercard zinterstore zlexcount"
                    + " zmpop zmscore zpopmax zpopmin zrandmember zrange zrangebylex zrangebyscore"
                    + " zrangestore zrank zrem zremrangebylex zremrangebyrank zremrangebyscore zrevrange"
                    + " zrevrangebylex zrevrangebyscore zrevrank zscan zscore zunion zunionstore"),
            Map.entry("SortedSetBlockingCommands",
                    "bzmpop bzpopmax bzpopmin"),
            Map.entry("GeoCommands",
                    "geoadd geodist geohash geopos"),
            Map.entry("GeoSearchCommands",
                    "georadius georadius_ro georadiusbymember georadiusbymember_ro geosearch"
                    + " geosearchstore"),
            Map.entry("StreamCommands",
                    "xack xadd xautoclaim xclaim xdel xgroup|create xgroup|createconsumer"
                    + " xgroup|delconsumer xgroup|destroy xgroup|help xgroup|setid xinfo|consumers"
                    + " xinfo|groups xinfo|help xinfo|stream xlen xpending xrange xread xreadgroup xrevrange"
                    + " xsetid xtrim"),
            Map.entry("TransactionCommands",
                    "discard exec multi unwatch watch"),
            Map.entry("PubSubCommands",
                    "psubscribe publish pubsub|channels pubsub|help pubsub|numpat pubsub|numsub"
                    + " pubsub|shardchannels pubsub|shardnumsub punsubscribe spublish ssubscribe subscribe"
                    + " sunsubscribe unsubscribe"),
            Map.entry("ScriptingCommands",
                    "eval eval_ro evalsha evalsha_ro script|debug script|exists script|flush script|help"
                    + " script|kill script|load"),
            Map.entry("FunctionCommands",
                    "fcall fcall_ro function|delete function|dump function|flush function|help"
                    + " function|kill function|list function|load function|restore function|stats"),
            Map.entry("AclCommands",
                    "acl|cat acl|deluser acl|dryrun acl|genpass acl|getuser acl|help acl|list acl|load"
                    + " acl|log acl|save acl|setuser acl|users acl|whoami"),
            Map.entry("ClusterCommands",
                    "asking cluster|addslots cluster|addslotsrange cluster|bumpepoch cluster|count-failure-reports"
                    + " cluster|countkeysinslot cluster|delslots cluster|delslotsrange cluster|failover cluster|flushslots cluster|forget cluster|getkeysinslot"
                    + " cluster|help cluster|info cluster|keyslot cluster|links cluster|meet cluster|myid cluster|nodes"
                    + " cluster|replicas cluster|saveconfig cluster|set-config-epoch cluster|setslot cluster|shards"
                    + " cluster|slaves cluster|slots readonly readwrite"),
            Map.entry("MigrateCommand",
                    "migrate"));

    private CommandFamilies() {
    }

    /** @param scripting the server's Lua runtime, which EVAL, FCALL and INFO use */
    public static List<CommandFamily> all(Scripting scripting) {
        return all(scripting, null);
    }

    /** @param acl the server's ACL, which the ACL command manages */
    public static List<CommandFamily> all(Scripting scripting, Acl acl) {
        return all(scripting, acl, new ClusterState());
    }

    /** @param cluster the server's cluster state (never joined on a standalone server), which CLUSTER reads */
    public static List<CommandFamily> all(Scripting scripting, Acl acl, ClusterState cluster) {
        List<CommandFamily> families = new ArrayList<>();
        for (Map.Entry<String, String> family : FAMILIES) {
            families.add(create(family.getKey(), scripting, acl, cluster));
        }
        return families;
    }

    /** The names of the commands each family declares, by family, in declaration order. */
    public static List<Map.Entry<String, List<String>>> declarations() {
        return Declarations.BY_FAMILY;
    }

    /**
     * {@link #FAMILIES} split into names once per JVM: immutable, derived from constants alone, so every simulator
     * can read the same lists (a start split ~50 strings and copied ~370 names again: decision 0046).
     */
    private static final class Declarations {
        static final List<Map.Entry<String, List<String>>> BY_FAMILY = split();

        private static List<Map.Entry<String, List<String>>> split() {
            List<Map.Entry<String, List<String>>> result = new ArrayList<>();
            for (Map.Entry<String, String> family : FAMILIES) {
                result.add(Map.entry(family.getKey(), List.of(family.getValue().split(" "))));
            }
            return List.copyOf(result);
        }
    }

    /**
     * Declares every family to the table: the entries are there at once, and each family's handlers are bound
     * (its class loaded, its handler lambdas linked) on the first use of one of its commands.
     */
    public static void declareAll(CommandTable table, Scripting scripting, Supplier<Acl> acl, ClusterState cluster) {
        // the entries' shape is worked out once per JVM; only the entries and the families' makers are this table's
        TableLayout layout = TableLayout.of(table.catalog(), declarations());
        List<Supplier<CommandFamily>> makers = new ArrayList<>(layout.families().size());
        for (TableLayout.Family family : layout.families()) {
            makers.add(new Maker(family.name(), scripting, acl, cluster));
        }
        table.declare(layout, makers);
    }

    /**
     * Makes the table layout of every family over Redis 7.0's catalog, once per JVM (later calls find it made): what an
     * in-process start's loop thread does while the starting thread makes the engine (decision 0049).
     */
    public static void prepareLayout() {
        TableLayout.of(CommandCatalog.redis70(), declarations());
    }

    /** Makes one family when it is first bound (a class rather than a lambda: every start declares the families). */
    private static final class Maker implements Supplier<CommandFamily> {
        private final String name;
        private final Scripting scripting;
        private final Supplier<Acl> acl;
        private final ClusterState cluster;

        Maker(String name, Scripting scripting, Supplier<Acl> acl, ClusterState cluster) {
            this.name = name;
            this.scripting = scripting;
            this.acl = acl;
            this.cluster = cluster;
        }

        @Override
        public CommandFamily get() {
            // the ACL is made when its family is bound (an ACL command's first call), not before (decision 0035)
            return create(name, scripting, acl == null || !name.equals("AclCommands") ? null : acl.get(), cluster);
        }
    }

    /** A family by its class's simple name; a switch rather than a list of constructors, so no family class loads before it is used. */
    private static CommandFamily create(String name, Scripting scripting, Acl acl, ClusterState cluster) {
        return switch (name) {
            case "ConnectionCommands" -> new ConnectionCommands();
            case "ClientCommands" -> new ClientCommands();
            case "ServerCommands" -> new ServerCommands();
            case "InfoCommands" -> new InfoCommands(scripting);
            case "MemoryCommands" -> new MemoryCommands(scripting);
            case "ConfigCommands" -> new ConfigCommands();
            case "CommandCommands" -> new CommandCommands();
            case "DebugCommands" -> new DebugCommands();
            case "SlowlogCommands" -> new SlowlogCommands();
            case "LatencyCommands" -> new LatencyCommands();
            case "MonitorCommand" -> new MonitorCommand();
            case "ReplicationCommands" -> new ReplicationCommands(scripting);
            case "KeyMemoryCommands" -> new KeyMemoryCommands();
            case "KeyCommands" -> new KeyCommands();
            case "KeySortCommands" -> new KeySortCommands();
            case "KeyDumpCommands" -> new KeyDumpCommands();
            case "StringCommands" -> new StringCommands();
            case "StringExpiryCommands" -> new StringExpiryCommands();
            case "StringFloatCommands" -> new StringFloatCommands();
            case "StringRangeCommands" -> new StringRangeCommands();
            case "StringLcsCommands" -> new StringLcsCommands();
            case "StringBitCommands" -> new StringBitCommands();
            case "StringBitOpCommands" -> new StringBitOpCommands();
            case "StringBitFieldCommands" -> new StringBitFieldCommands();
            case "HyperLogLogCommands" -> new HyperLogLogCommands();
            case "HyperLogLogDebugCommands" -> new HyperLogLogDebugCommands();
            case "ListCommands" -> new ListCommands();
            case "ListBlockingCommands" -> new ListBlockingCommands();
            case "HashCommands" -> new HashCommands();
            case "SetCommands" -> new SetCommands();
            case "SortedSetCommands" -> new SortedSetCommands();
            case "SortedSetBlockingCommands" -> new SortedSetBlockingCommands();
            case "GeoCommands" -> new GeoCommands();
            case "GeoSearchCommands" -> new GeoSearchCommands();
            case "StreamCommands" -> new StreamCommands();
            case "TransactionCommands" -> new TransactionCommands();
            case "PubSubCommands" -> new PubSubCommands(cluster);
            case "ScriptingCommands" -> new ScriptingCommands(scripting);
            case "FunctionCommands" -> new FunctionCommands(scripting);
            case "AclCommands" -> new AclCommands(acl);
            case "ClusterCommands" -> new ClusterCommands(cluster);
            case "MigrateCommand" -> new MigrateCommand(cluster);
            default -> throw new IllegalArgumentException("no command family " + name);
        };
    }

    public static void registerAll(CommandTable table, Scripting scripting) {
        registerAll(table, scripting, null);
    }

    public static void registerAll(CommandTable table, Scripting scripting, Acl acl) {
        registerAll(table, scripting, acl, new ClusterState());
    }

    /** Binds every family's handlers at once: for tables that are read whole (bindings, docs). */
    public static void registerAll(CommandTable table, Scripting scripting, Acl acl, ClusterState cluster) {
        for (CommandFamily family : all(scripting, acl, cluster)) {
            family.register(table);
        }
    }

    /** Binds every handler without a Lua runtime: for a table that is read (bindings, docs), never run. */
    public static void registerAll(CommandTable table) {
        registerAll(table, null);
    }
}
