package dev.redsim.simulator;

import dev.redsim.simulator.acl.Acl;
import dev.redsim.simulator.cluster.ClusterState;
import dev.redsim.simulator.command.CommandProcessor;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.commands.CommandFamilies;
import dev.redsim.simulator.commands.connection.ClientListLine;
import dev.redsim.simulator.engine.Engine;
import dev.redsim.simulator.engine.TimeSource;
import dev.redsim.simulator.scripting.ScriptRunner;
import dev.redsim.simulator.scripting.Scripting;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * The command room of one simulator, wired: the command table with every family's handlers, the call path that
 * runs them, the ACL and the Lua runtime. Wiring it is the largest part of a first start in a fresh JVM (the
 * catalog resource is parsed, several hundred handler classes load), so a simulator wires it on a helper thread
 * while its own thread starts Netty's event loops, and joins it before it binds (decision 0021).
 */
record CommandRoom(CommandProcessor commands, ScriptRunner scriptRunner, Scripting scripting) {

    /** The wiring under way on its helper thread. */
    static final class Wiring {
        private final FutureTask<CommandRoom> task;

        private Wiring(FutureTask<CommandRoom> task) {
            this.task = task;
        }

        /** Waits for the room (the helper thread's writes to the engine happen-before the return). */
        CommandRoom join() {
            boolean interrupted = false;
            try {
                while (true) {
                    try {
                        return task.get();
                    } catch (InterruptedException e) {
                        interrupted = true; // the helper writes to the engine: never leave it running behind us
                    }
                }
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RuntimeException runtime) {
                    throw runtime;
                }
                if (cause instanceof Error error) {
                    throw error;
                }
                throw new IllegalStateException(cause);
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        /** Waits for the helper thread to end, whatever its outcome: for a start that fails on the other thread. */
        void awaitQuietly() {
            try {
                join();
            } catch (RuntimeException | Error ignored) {
                // the other thread's failure is the one the caller reports
            }
        }
    }

    /**
     * Starts wiring the room on a helper thread. Until {@link Wiring#join()} returns, the caller must leave the
     * engine alone (the ACL registers its default user and a configuration listener on it).
     */
    static Wiring wireInBackground(Engine engine, TimeSource time, ClusterState cluster, long scriptMemoryLimit) {
        FutureTask<CommandRoom> task = new FutureTask<>(() -> wire(engine, time, cluster, scriptMemoryLimit));
        Thread helper = new Thread(task, "redsim-wiring");
        helper.setDaemon(true);
        helper.start();
        return new Wiring(task);
    }

    private static CommandRoom wire(Engine engine, TimeSource time, ClusterState cluster, long scriptMemoryLimit) {
        CommandTable table = new CommandTable();
        CommandProcessor commands = new CommandProcessor(engine, table);
        Acl acl = new Acl(engine, table.catalog());
        acl.clientInfo((client, running) -> ClientListLine.of(client, time.millis(), true, running));
        commands.accessControl(acl);
        ScriptRunner scriptRunner = new ScriptRunner(engine);
        Scripting scripting = new Scripting(commands, scriptRunner);
        CommandFamilies.declareAll(table, scripting, acl, cluster); // bound on first use
        if (scriptMemoryLimit > 0) {
            scriptRunner.memory().limit(scriptMemoryLimit);
        }
        return new CommandRoom(commands, scriptRunner, scripting); // scripting: a cluster node's full sync copies its functions
    }
}
