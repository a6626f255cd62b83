package dev.redsim.simulator.commands;

import dev.redsim.simulator.acl.Acl;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
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

import java.util.List;

/** Every command family of the simulator; the command table is built from this list. */
public final class CommandFamilies {
    private CommandFamilies() {
    }

    /** @param scripting the server's Lua runtime, which EVAL, FCALL and INFO use */
    public static List<CommandFamily> all(Scripting scripting) {
        return all(scripting, null);
    }

    /** @param acl the server's ACL, which the ACL command manages */
    public static List<CommandFamily> all(Scripting scripting, Acl acl) {
        return all(scripting, acl, new dev.redsim.simulator.cluster.ClusterState());
    }

    /** @param cluster the server's cluster state (never joined on a standalone server), which CLUSTER reads */
    public static List<CommandFamily> all(Scripting scripting, Acl acl, dev.redsim.simulator.cluster.ClusterState cluster) {
        return List.of(
                new ConnectionCommands(),
                new ClientCommands(),
                new ServerCommands(),
                new InfoCommands(scripting),
                new MemoryCommands(scripting),
                new ConfigCommands(),
                new CommandCommands(),
                new DebugCommands(),
                new SlowlogCommands(),
                new LatencyCommands(),
                new MonitorCommand(),
                new ReplicationCommands(scripting),
                new KeyMemoryCommands(),
                new KeyCommands(),
                new KeySortCommands(),
                new KeyDumpCommands(),
                new StringCommands(),
                new StringExpiryCommands(),
                new StringFloatCommands(),
                new StringRangeCommands(),
                new StringLcsCommands(),
                new StringBitCommands(),
                new StringBitOpCommands(),
                new StringBitFieldCommands(),
                new HyperLogLogCommands(),
                new HyperLogLogDebugCommands(),
                new ListCommands(),
                new ListBlockingCommands(),
                new HashCommands(),
                new SetCommands(),
                new SortedSetCommands(),
                new SortedSetBlockingCommands(),
                new GeoCommands(),
                new GeoSearchCommands(),
                new dev.redsim.simulator.commands.streams.StreamCommands(),
                new TransactionCommands(),
                new PubSubCommands(cluster),
                new ScriptingCommands(scripting),
                new FunctionCommands(scripting),
                new AclCommands(acl),
                new dev.redsim.simulator.commands.cluster.ClusterCommands(cluster),
                new dev.redsim.simulator.commands.cluster.MigrateCommand(cluster));
    }

    public static void registerAll(CommandTable table, Scripting scripting) {
        registerAll(table, scripting, null);
    }

    public static void registerAll(CommandTable table, Scripting scripting, Acl acl) {
        registerAll(table, scripting, acl, new dev.redsim.simulator.cluster.ClusterState());
    }

    public static void registerAll(CommandTable table, Scripting scripting, Acl acl,
            dev.redsim.simulator.cluster.ClusterState cluster) {
        for (CommandFamily family : all(scripting, acl, cluster)) {
            family.register(table);
        }
    }

    /** Binds every handler without a Lua runtime: for a table that is read (bindings, docs), never run. */
    public static void registerAll(CommandTable table) {
        registerAll(table, null);
    }
}
