package dev.redsim.simulator;

import dev.redsim.simulator.acl.Acl;
import dev.redsim.simulator.acl.AclOnFirstUse;
import dev.redsim.simulator.cluster.ClusterState;
import dev.redsim.simulator.command.CommandProcessor;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.commands.CommandFamilies;
import dev.redsim.simulator.commands.connection.ClientListLine;
import dev.redsim.simulator.engine.Engine;
import dev.redsim.simulator.engine.TimeSource;
import dev.redsim.simulator.scripting.ScriptRunner;
import dev.redsim.simulator.scripting.Scripting;
import dev.redsim.simulator.server.ClientConnection;

/**
 * The command room of one simulator, wired: the command table with every family's handlers, the call path that
 * runs them, the ACL and the Lua runtime. It is wired on the starting thread while the loop's thread opens its
 * selector (decisions 0031, 0049).
 */
record CommandRoom(CommandProcessor commands, ScriptRunner scriptRunner, Scripting scripting) {

    /**
     * Wires the room of a simulator whose engine is made: the table (families declared, bound on first use), the
     * call path, the ACL (made on its first use: decision 0035) and the Lua runtime.
     */
    static CommandRoom wire(Engine engine, TimeSource time, ClusterState cluster, long scriptMemoryLimit) {
        CommandTable table = new CommandTable();
        CommandProcessor commands = new CommandProcessor(engine, table);
        AclOnFirstUse acl = new AclOnFirstUse(engine, table.catalog(), new AclLogClientInfo(time));
        commands.accessControl(acl);
        ScriptRunner scriptRunner = new ScriptRunner(engine, commands);
        Scripting scripting = new Scripting(commands, scriptRunner);
        CommandFamilies.declareAll(table, scripting, acl, cluster); // bound on first use
        if (scriptMemoryLimit > 0) {
            scriptRunner.memory().limit(scriptMemoryLimit);
        }
        return new CommandRoom(commands, scriptRunner, scripting); // scripting: a cluster node's full sync copies its functions
    }

    /** ACL LOG's client-info field: the client as CLIENT LIST shows it (a class, not a lambda: made at every start). */
    private static final class AclLogClientInfo implements Acl.ClientInfo {
        private final TimeSource time;

        AclLogClientInfo(TimeSource time) {
            this.time = time;
        }

        @Override
        public String describe(ClientConnection client, String runningCommand) {
            return ClientListLine.of(client, time.millis(), true, runningCommand);
        }
    }
}
